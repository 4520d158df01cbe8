"""Gate dependencies on the command line: exit 2 with the components' words, for a release named."""

from allocator.tests.helpers import cli, write_files

CLAIM = """
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: one, namespace: default}
spec:
  devices:
    requests: [{name: gpu, exactly: {deviceClassName: gpu}}]
"""

WORDS = "DRADeviceTaintRules is enabled, but depends on features that are disabled: [DRADeviceTaints]"


def test_every_command_refuses_the_combination(tmp_path):
    (path,) = write_files(tmp_path, claim=CLAIM)
    for command in ("allocate", "validate", "capacity"):
        p = cli(command, "--kubernetes-version", "1.37", "--feature-gates", "DRADeviceTaints=false", path)
        assert p.returncode == 2, (command, p.stdout, p.stderr)
        assert p.stderr.strip() == f"error: {WORDS}", command
        assert p.stdout == ""


def test_a_valid_combination_and_1_34_are_accepted(tmp_path):
    (path,) = write_files(tmp_path, claim=CLAIM)
    p = cli("validate", "--kubernetes-version", "1.37", "--feature-gates",
            "DRADeviceTaints=false,DRADeviceTaintRules=false", path)
    assert p.returncode == 0, p.stderr
    p = cli("validate", "--kubernetes-version", "1.34", "--feature-gates",
            "DRADeviceBindingConditions=true,DRAResourceClaimDeviceStatus=false", path)
    assert p.returncode == 0, p.stderr


def test_without_a_release_the_gates_are_the_allocator_library_switches(tmp_path):
    # As the conformance cases run: no release named, no component start-up check.
    (path,) = write_files(tmp_path, claim=CLAIM)
    p = cli("validate", "--feature-gates", "DRADeviceTaints=false", path)
    assert p.returncode == 0, p.stderr
