/* DRA Playground, editor page: every request the page sends, and the order of their answers.
 * No build step.
 *
 * No request goes out from the form itself (htmx would take the formaction of the submit button
 * that last had the focus): each leaves from an element that names its URL and target
 * (#live-update, the sample picker, the panels' buttons), sent here with htmx.ajax. Edits become a
 * live update once the typing pauses; answers that arrive after their target was replaced go to
 * the replacement only if nothing was edited since they were asked. The node fields analyse once
 * a name is complete, Enter in a one-line field analyses now, and the "Use my cluster" fields go
 * only with the store button.
 *
 * Shares on window.DRAPlayground: `sendFrom(element)`, `sendLiveUpdate()`, `cancelLiveUpdate()`,
 * `whileQuiet(fn)` (restoring the tab's work sends one request of its own, not a live update per
 * field) and `restorePaste()` (playground.js, when the form is redrawn).
 */
(function () {
  "use strict";
  const page = (window.DRAPlayground = window.DRAPlayground || {});

  // A request of the form's own takes the formaction of the submit button that last had the focus
  // (htmx's submitter): with How many fit?'s Run focused, a live update went to /capacity and its answer
  // replaced the whole results. So no request goes out from the form: each from an element that names
  // its URL and target (#live-update, the sample picker, the panels' buttons), sent here explicitly
  // rather than through an htmx trigger, which a just-swapped element has not been set up for yet.
  function sendFrom(source) {
    if (!source || typeof htmx === "undefined") return;
    htmx.ajax("POST", source.getAttribute("hx-post"), {
      source: source, target: source.getAttribute("hx-target"), swap: source.getAttribute("hx-swap"),
      select: source.getAttribute("hx-select") || undefined,
    }).catch(function () { /* replaced by a newer request (hx-sync) */ });
  }

  // Live analysis: every edit of the form (but of controls marked data-no-live, which act on their own)
  // becomes a "live-edit" event; the live update leaves once the edits pause. A pick, Run or Ctrl-Enter
  // sends the form at once, and with it the pending edit.
  const LIVE_PAUSE_MS = 400;
  let liveTimer = null;
  let quiet = false; // restoring the tab's work: it sends one request of its own
  function cancelLiveUpdate() {
    clearTimeout(liveTimer);
    liveTimer = null;
  }
  function sendLiveUpdate() {
    cancelLiveUpdate();
    sendFrom(document.getElementById("live-update"));
  }
  page.sendFrom = sendFrom;
  page.cancelLiveUpdate = cancelLiveUpdate;
  page.sendLiveUpdate = sendLiveUpdate;
  page.whileQuiet = function (fn) {
    quiet = true;
    try { fn(); } finally { quiet = false; }
  };
  document.addEventListener("input", function (event) {
    const target = event.target;
    if (quiet || !target.form || target.form.id !== "playground-form" || target.hasAttribute("data-no-live")) return;
    target.dispatchEvent(new CustomEvent("live-edit", { bubbles: true }));
  });
  document.addEventListener("live-edit", function () {
    cancelLiveUpdate();
    liveTimer = setTimeout(sendLiveUpdate, LIVE_PAUSE_MS);
  });

  // Answers in order. Every request remembers how many edits of the form there had been when it left.
  // An answer whose target was replaced meanwhile (a live update redraws the panels) goes to the
  // element that replaced it if nothing was edited since it was asked, and is dropped otherwise; a
  // live update keeps a panel's answer to the same edit (How many fit? run in the typing pause).
  // Requests to one target are ordered by hx-sync (the form's, the panels' buttons' own).
  let edits = 0;
  function countEdit(event) {
    if (event.target.form && event.target.form.id === "playground-form") edits += 1;
  }
  document.addEventListener("input", countEdit, true);
  document.addEventListener("change", countEdit, true);

  function placeAnswer(event) {
    const detail = event.detail;
    if (!detail.target || detail.target.isConnected) return;
    const current = detail.target.id ? document.getElementById(detail.target.id) : null;
    if (current && detail.xhr.askedAfterEdits === edits) detail.target = current;
    else event.preventDefault();
  }

  const placing = new WeakSet(); // the elements placeAnswer listens on
  document.addEventListener("htmx:beforeRequest", function (event) {
    event.detail.xhr.askedAfterEdits = edits;
    // On the element itself: its events no longer reach the document once a swap has removed it.
    const source = event.detail.elt;
    if (source && !placing.has(source)) {
      placing.add(source);
      source.addEventListener("htmx:beforeOnLoad", placeAnswer);
    }
  });

  let panelAnswers = [];
  document.addEventListener("htmx:beforeSwap", function (event) {
    const target = event.detail.target;
    panelAnswers = [];
    if (!target || target.id !== "results" || !event.detail.shouldSwap) return;
    const asked = String(event.detail.xhr.askedAfterEdits);
    target.querySelectorAll("[data-answers-edits]").forEach(function (panel) {
      if (panel.id && panel.dataset.answersEdits === asked) panelAnswers.push(panel);
    });
  });
  document.addEventListener("htmx:afterSwap", function (event) {
    const target = event.detail.target;
    if (target && target.id !== "results" && target.id !== "playground" && event.detail.xhr) {
      target.dataset.answersEdits = String(event.detail.xhr.askedAfterEdits);
    }
    panelAnswers.forEach(function (old) {
      const fresh = document.getElementById(old.id);
      if (!fresh || fresh === old || fresh.textContent.trim()) return;
      fresh.replaceChildren.apply(fresh, Array.from(old.childNodes));
      fresh.dataset.answersEdits = old.dataset.answersEdits;
    });
    panelAnswers = [];
  });

  // The node fields (a datalist of the inventory's node names) analyse once a name is complete:
  // empty (every node), one of the names, or whatever it holds on Enter or on leaving it.
  function nodeEdit(event) {
    const field = event.target;
    if (field.id !== "id_node" && field.id !== "id_compare_node") return;
    const names = field.list ? Array.prototype.map.call(field.list.options, function (o) { return o.value; }) : [];
    if (event.type === "change" || !field.value || names.indexOf(field.value) >= 0) {
      if (field.dataset.sent === field.value) return;
      field.dataset.sent = field.value;
      field.dispatchEvent(new CustomEvent("live-edit", { bubbles: true }));
    }
  }
  document.addEventListener("input", nodeEdit);
  document.addEventListener("change", nodeEdit);

  // Enter in a one-line field of the form (the node, Find nodes) analyses now (in the count of
  // "How many fit?": runs the panel), rather than submitting the whole page as a form without
  // script would.
  document.addEventListener("keydown", function (event) {
    const field = event.target;
    if (event.key !== "Enter" || event.defaultPrevented || !field.form || field.form.id !== "playground-form" ||
        field.tagName !== "INPUT" || !/^(text|search)$/.test(field.type)) return;
    event.preventDefault();
    if (field.id === "id_node" || field.id === "id_compare_node") nodeEdit({ type: "change", target: field });
    else if (field.id === "id_capacity_max") document.getElementById("capacity-button").click(); // the panel's Run
    else page.runNow();
  });

  // "Use my cluster": only the store button sends the cluster, and a pasted one goes as a file
  // (form fields are held to the site's small body limit, files to the stored-inventory limit).
  // Every other request of the form (live edits above all) leaves the cluster fields out.
  document.addEventListener("htmx:configRequest", function (event) {
    const params = event.detail.parameters;
    if (!params || typeof params.delete !== "function") return;
    const fromStore = event.detail.elt && event.detail.elt.id === "store-cluster-button";
    const pasted = params.get("cluster_text");
    const file = params.get("cluster_file");
    params.delete("cluster_text");
    if (!fromStore) {
      params.delete("cluster_file");
    } else if ((!file || !file.size) && pasted) {
      params.set("cluster_file", new File([pasted], "pasted.yaml", { type: "application/yaml" }));
      params.set("cluster_pasted", "1"); // a refused paste comes back in the textarea
      lastPaste = pasted;
    } else {
      lastPaste = "";
    }
  });

  // A refused paste the server could not send back (too large to read): put it back from here.
  let lastPaste = "";
  function restorePaste() {
    const error = document.getElementById("cluster-error");
    const textarea = document.getElementById("id_cluster_text");
    if (error && textarea && !textarea.value && lastPaste) textarea.value = lastPaste;
    lastPaste = "";
  }
  page.restorePaste = restorePaste;
})();
