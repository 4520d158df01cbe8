"""Races between the page's requests, each interleaving run many times in one test.

Every request htmx sends names the element it will fill (the ``HX-Target`` header): the live update and
a sample pick fill the results or the whole editor from ``/``, "How many fit?" its result from
``/capacity``, the console its result from ``/console``, Share its link from ``/share``. Whatever has the
focus and whatever is in flight, a request must go to its target's URL, and what stays on screen must be
the answer to the newest request. The loops are what catch a race: one pass can be lucky.
"""

from __future__ import annotations

from urllib.parse import urlparse

from playwright.sync_api import Page, expect

from e2e.helpers import editor, summary

ROUNDS = 15
ROUTES = {"results": "/", "playground": "/", "capacity-result": "/capacity", "console-result": "/console",
          "share": "/share", "picture": "/picture"}
EXAMPLE = "/examples/count-two-gpus"
LOADED = 30_000  # ms: on a busy machine an answer can take seconds  # a claim for two GPUs of the one-GPU-node sample: quick to analyse


def watch_requests(page: Page) -> list[tuple[str, str]]:
    """(path, HX-Target) of every htmx request the page sends from now on."""
    sent: list[tuple[str, str]] = []

    def seen(request) -> None:
        if request.headers.get("hx-request"):
            sent.append((urlparse(request.url).path, request.headers.get("hx-target", "")))
    page.on("request", seen)
    return sent


def misrouted(sent: list[tuple[str, str]]) -> list[tuple[str, str]]:
    return [(path, target) for path, target in sent if ROUTES.get(target) != path]


def is_live_update(response) -> bool:
    return response.request.headers.get("hx-target") == "results"


def append_to_claims(page: Page, text: str, focus: bool = True) -> None:
    """Add text at the very end of the claims (a comment: the claims stay the same), typed when the
    editor has the focus, else put there by script as another control would."""
    page.evaluate("""([text, focus]) => {
        const cm = document.getElementById('id_documents').cm;
        const end = {line: cm.lastLine(), ch: cm.getLine(cm.lastLine()).length};
        if (focus) { cm.focus(); cm.setCursor(end); } else { cm.replaceRange(text, end); }
    }""", [text, focus])
    if focus:
        page.keyboard.insert_text(text)


def test_typing_then_running_how_many_fit_leaves_both_answers_in_place(page: Page, samples):
    """The review's steps: two characters typed, then How many fit?'s Run before the typing pause ends.
    The live update must go to / and fill the results; the capacity answer stays in its panel."""
    page.goto(EXAMPLE)
    expect(summary(page)).to_contain_text("Allocated")
    sent = watch_requests(page)
    for round_number in range(ROUNDS):
        with page.expect_response(is_live_update, timeout=LOADED):
            append_to_claims(page, " #")
            page.locator("#capacity-button").click()
        expect(summary(page)).to_contain_text("Allocated", timeout=LOADED)
        expect(page.locator("#capacity-summary")).to_contain_text("placed", timeout=LOADED)
        assert not misrouted(sent), f"round {round_number}: {misrouted(sent)}"
    assert ("/capacity", "capacity-result") in sent


def test_an_update_while_a_panel_button_has_the_focus_goes_to_the_results(page: Page, samples):
    """A live update (or Ctrl-Enter) fired while Run, Evaluate, Share or Export YAML has the focus: the
    focused button's formaction is not the live update's URL."""
    page.goto(EXAMPLE)
    expect(summary(page)).to_contain_text("Allocated")
    sent = watch_requests(page)
    buttons = ("#capacity-button", "#console-button", "#share-button", "#export-button")
    for round_number in range(ROUNDS):
        button = buttons[round_number % len(buttons)]
        page.locator(button).focus()
        with page.expect_response(is_live_update, timeout=LOADED):
            if round_number % 2:
                append_to_claims(page, " #", focus=False)  # an edit arriving while the button has the focus
            else:
                page.keyboard.press("Control+Enter")  # Run now, from wherever the focus is
        expect(summary(page)).to_contain_text("Allocated", timeout=LOADED)
        expect(page.locator("#results #picture")).to_be_visible()
        assert not misrouted(sent), f"round {round_number} ({button}): {misrouted(sent)}"


# Two samples whose starter claims are allocated at once, on different nodes.
PICKS = (("gpu-node", "dra-example-driver-cluster-worker"), ("cpu-node", "dra-driver-cpu-worker"))


# A person's pick (the events select_option sends) made `delay` ms after the first pick's page has been
# swapped in: before htmx and this page's script have set the new picker up (htmx does so after 20 ms).
# The page on screen now is marked data-before, the one the pick is made on data-picked-on.
PICK_WHEN_SWAPPED = """([slug, delay]) => {
    const old = document.getElementById('playground');
    old.dataset.before = '1';
    const observer = new MutationObserver(() => {
        const now = document.getElementById('playground');
        if (!now || now === old) return;
        observer.disconnect();
        setTimeout(() => {
            const picker = document.getElementById('id_inventory_slug');
            document.getElementById('playground').dataset.pickedOn = '1';
            picker.value = slug;
            picker.dispatchEvent(new Event('input', {bubbles: true}));
            picker.dispatchEvent(new Event('change', {bubbles: true}));
        }, delay);
    });
    observer.observe(document.body, {childList: true, subtree: true});
}"""


def test_a_sample_picked_as_soon_as_the_last_one_arrived_is_loaded(page: Page, samples):
    """Pick a sample the moment the previous pick's page arrives (0, 10 or 20 ms after it is swapped in):
    the new pick must load, every time."""
    page.goto("/")
    expect(summary(page)).to_be_visible()
    sent = watch_requests(page)
    picker = page.get_by_label("Sample inventory")
    (second, node), (first, _) = PICKS
    picker.select_option(second)
    expect(summary(page)).to_contain_text(f"Allocated on node {node}", timeout=LOADED)
    for round_number in range(ROUNDS):
        page.evaluate(PICK_WHEN_SWAPPED, [second, 10 * (round_number % 3)])
        picker.select_option(first)
        # The page the second pick loads: neither the one before the first pick nor the one picked on.
        loaded = page.locator(f'#playground:not([data-before]):not([data-picked-on]) #id_inventory[data-sample="{second}"]')
        loaded.wait_for(state="attached", timeout=LOADED)
        expect(summary(page)).to_contain_text(f"Allocated on node {node}", timeout=LOADED)
        expect(picker).to_have_value(second)
        assert not misrouted(sent), f"round {round_number}: {misrouted(sent)}"


def test_a_sample_picked_before_the_typing_pause_ends_is_loaded(page: Page, samples):
    """Type, then pick a sample before the live update leaves: the pending update must not replace the
    load (nor post the old inventory under the new sample's name)."""
    page.goto("/")
    expect(summary(page)).to_be_visible()
    sent = watch_requests(page)
    picker = page.get_by_label("Sample inventory")
    for round_number in range(ROUNDS):
        slug, node = PICKS[round_number % 2]
        expect(editor(page)).to_be_visible()  # the last pick's editor is set up
        append_to_claims(page, " #")
        picker.select_option(slug)
        # The edited claims stay (loading replaces only unedited ones): the results are of the new sample's node.
        expect(page.locator("#id_inventory")).to_have_attribute("data-sample", slug, timeout=LOADED)
        expect(page.locator("#results")).to_contain_text(node, timeout=LOADED)
        assert not misrouted(sent), f"round {round_number}: {misrouted(sent)}"


def test_an_answer_held_back_past_the_live_update_still_lands_in_its_panel(page: Page, samples):
    """How many fit?'s Run or Share sent in the typing pause, their answers held back by the network until
    the live update has been answered: both must still show, and the results stay whole."""
    page.goto(EXAMPLE)
    expect(summary(page)).to_contain_text("Allocated")
    sent = watch_requests(page)
    held = []
    for path in ("/capacity", "/share"):
        page.route(f"**{path}", lambda route: held.append(route))
    for round_number in range(ROUNDS):
        button, answer = (("#capacity-button", "#capacity-summary"), ("#share-button", "#share-url"))[round_number % 2]
        held.clear()
        with page.expect_response(is_live_update, timeout=LOADED):
            append_to_claims(page, " #", focus=False)  # not typed: a share link arriving takes the focus
            page.locator(button).click()
        expect(summary(page)).to_contain_text("Allocated", timeout=LOADED)
        assert len(held) == 1, f"round {round_number}: {button} sent {len(held)} requests"
        try:
            held[0].continue_()
        except Exception as error:  # the page gave up the request (aborted it): its answer is lost
            raise AssertionError(f"round {round_number}: {button}'s request was dropped: {error}") from error
        expect(page.locator(answer)).to_be_visible(timeout=LOADED)
        expect(page.locator("#results #picture")).to_be_visible()
        assert not misrouted(sent), f"round {round_number}: {misrouted(sent)}"
