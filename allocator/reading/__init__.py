"""Text to documents: input files, limits, the YAML/JSON readers, formatting and located diagnostics."""

# typing.TYPE_CHECKING without importing typing (about 2 ms of a one-node command's start-up): a type
# checker takes any name TYPE_CHECKING as true; Python sees False. Every folder of the engine may import it
# from here, the pipeline's first folder.
TYPE_CHECKING = False
