/* DRA Playground: completion (Ctrl-Space) and hover help in the YAML editors. No build step.
 *
 * Knows no field, class or function itself: it shows what the server's engine
 * sends (GET /editor/language: field names per apiVersion and kind, their docs,
 * CEL functions; POST /editor/names: the names of the inventory in the editor).
 * This file only works out where the cursor is: which field of which kind, or
 * inside a CEL expression after `device.attributes["<domain>"].`, and so on.
 */
(function () {
  "use strict";

  let language = { query: null, promise: null }; // the language data for the editor's release and gates
  let names = { text: null, promise: null }; // names of the last inventory text asked about

  function form() { return document.getElementById("playground-form"); }

  function csrf() {
    const input = document.querySelector("#playground-form input[name=csrfmiddlewaretoken]");
    return input ? input.value : "";
  }

  // The editor's release and gate overrides, as the form sends them: the engine answers what that
  // release with those gates compiles (a function behind a gate that is off says so).
  function languageQuery() {
    const params = new URLSearchParams();
    const release = document.getElementById("id_kubernetes_version");
    if (release) params.append("kubernetes_version", release.value);
    document.querySelectorAll("#gate-list select[name^='gate_']").forEach(function (el) {
      if (!el.disabled && el.value) params.append(el.name, el.value);
    });
    return params.toString();
  }

  function loadLanguage() {
    const query = languageQuery();
    if (language.query !== query || !language.promise) {
      const url = form().dataset.languageUrl + (query ? "?" + query : "");
      const promise = fetch(url, { credentials: "same-origin" })
        .then(function (r) { if (!r.ok) throw new Error("HTTP " + r.status); return r.json(); });
      promise.catch(function () { if (language.promise === promise) language = { query: null, promise: null }; });
      language = { query: query, promise: promise };
    }
    return language.promise;
  }

  function inventoryText() {
    const textarea = document.getElementById("id_inventory");
    return textarea ? (textarea.cm ? textarea.cm.getValue() : textarea.value) : "";
  }

  // A stored cluster ("Use my cluster") is named by its id; its text is not on the page.
  function storedClusterId() {
    const input = document.getElementById("id_inventory_id");
    return input && !inventoryText().trim() ? input.value : "";
  }

  function loadNames() {
    const id = storedClusterId();
    const text = id ? "\u0000" + id : inventoryText();
    if (names.text !== text || !names.promise) {
      const body = new FormData();
      body.append(id ? "inventory_id" : "inventory", id || text);
      names = {
        text: text,
        promise: fetch(form().dataset.namesUrl, {
          method: "POST", body: body, credentials: "same-origin", headers: { "X-CSRFToken": csrf() },
        }).then(function (r) { if (!r.ok) throw new Error("HTTP " + r.status); return r.json(); }),
      };
      names.promise.catch(function () { names = { text: null, promise: null }; });
    }
    return names.promise;
  }

  // ------------------------------------------------------------------ where the cursor is

  const KEY_LINE = /^(\s*)(-\s+)?(["']?)([\w.\/-]*)\3\s*:(\s|$)/;

  function lineKey(text) {
    const m = KEY_LINE.exec(text);
    if (!m) return null;
    const dash = m[2] ? m[1].length : -1;
    return { key: m[4], col: m[1].length + (m[2] ? m[2].length : 0), dash: dash, rest: text.slice(m[0].length).trim() };
  }

  function dashOnly(text) {
    const m = /^(\s*)-(\s+|$)/.exec(text);
    return m ? m[1].length : -1;
  }

  // The first and last line of the YAML document around `line` (documents are split by ---).
  function documentRange(cm, line) {
    let first = line, last = line;
    while (first > 0 && !/^---/.test(cm.getLine(first))) first--;
    if (/^---/.test(cm.getLine(first))) first++;
    while (last < cm.lineCount() - 1 && !/^---/.test(cm.getLine(last + 1))) last++;
    return { first: first, last: last };
  }

  function documentHead(cm, line) {
    const range = documentRange(cm, line);
    const head = { apiVersion: "", kind: "" };
    for (let i = range.first; i <= range.last; i++) {
      const m = /^(apiVersion|kind):\s*["']?([\w.\/-]+)/.exec(cm.getLine(i));
      if (m && !head[m[1]]) head[m[1]] = m[2];
    }
    return head;
  }

  // The keys from the document's top down to the mapping that holds column `col` on `line`.
  function keyPath(cm, line, col, inList) {
    const path = [];
    let target = col, orEqual = inList;
    const first = documentRange(cm, line).first;
    for (let i = line - 1; i >= first; i--) {
      if (target === 0 && !orEqual) break;
      const text = cm.getLine(i);
      if (!text.trim() || /^\s*#/.test(text)) continue;
      const k = lineKey(text);
      const dash = k ? k.dash : dashOnly(text);
      if (k && (k.col < target || (orEqual && k.col <= target)) && k.rest === "") {
        path.unshift(k.key);
        target = k.col;
        orEqual = false;
        if (k.dash >= 0) { target = k.dash; orEqual = true; }
        continue;
      }
      if (k && k.col < target) break; // a scalar field: not our parent, the YAML is unusual
      if (dash >= 0 && dash < target) { target = dash; orEqual = true; }
    }
    return path;
  }

  // The schema type reached by following `path` from the document's kind, or null.
  function typeAt(lang, head, path) {
    const schema = lang.schemas[head.apiVersion];
    if (!schema || !schema.kinds[head.kind]) return null;
    let type = schema.kinds[head.kind], mapValue = false;
    for (let i = 0; i < path.length; i++) {
      if (mapValue) { mapValue = false; continue; } // a map key of the user's choosing
      const child = (schema.types[type] || {})[path[i]];
      if (!child) return null;
      mapValue = child.charAt(0) === "{";
      type = child.replace(/[\[\]{}]/g, "");
    }
    return mapValue ? null : { schema: schema, type: type };
  }

  // The keys already written in the mapping that holds column `col` on `line` (that line left out);
  // on a line that starts a list item, only the lines below belong to its mapping.
  function siblingKeys(cm, line, col, newItem) {
    const keys = {};
    const range = documentRange(cm, line);
    (newItem ? [1] : [-1, 1]).forEach(function (dir) {
      for (let i = line + dir; i >= range.first && i <= range.last; i += dir) {
        const text = cm.getLine(i);
        if (!text.trim() || /^\s*#/.test(text)) continue;
        const k = lineKey(text);
        if (k && k.dash >= 0 && k.col === col) { // where a list item starts: ours above, the next below
          if (dir < 0) keys[k.key] = true;
          break;
        }
        if (/^\s*/.exec(text)[0].length < col) break;
        if (k && k.col === col) keys[k.key] = true;
      }
    });
    return keys;
  }

  // Is `line` inside a CEL expression (after `expression:` or in its block scalar)?
  function inExpression(cm, line, ch) {
    const text = cm.getLine(line);
    const m = /^(\s*)(-\s+)?expression:\s*/.exec(text);
    if (m) return ch >= m[0].length && !/^[|>]/.test(text.slice(m[0].length));
    const indent = /^\s*/.exec(text)[0].length;
    for (let i = line - 1; i >= 0; i--) {
      const above = cm.getLine(i);
      if (!above.trim()) continue;
      const aboveIndent = /^\s*/.exec(above)[0].length;
      if (aboveIndent < indent) return /expression:\s*[|>][-+]?\s*$/.test(above);
    }
    return false;
  }

  // ------------------------------------------------------------------ completion

  function item(text, doc, kind) {
    return { text: text, displayText: text, doc: doc || "", kind: kind || "", render: renderItem };
  }

  // A function the engine marks as behind a gate that is off: offered, its detail says so first.
  function functionItem(f) {
    const it = item(f.name, f.doc || f.signature, "function");
    if (f.gateOff) { it.className = "hint-gated"; it.badge = "needs " + f.gate; }
    return it;
  }

  function renderItem(el, self, data) {
    const name = document.createElement("span");
    name.textContent = data.label || data.displayText;
    el.appendChild(name);
    if (data.badge) {
      const badge = document.createElement("span");
      badge.className = "hint-badge";
      badge.textContent = data.badge;
      el.appendChild(badge);
    }
    if (data.doc) {
      const doc = document.createElement("span");
      doc.className = "hint-doc";
      doc.textContent = data.doc;
      el.appendChild(doc);
    }
  }

  function filtered(items, prefix) {
    const p = prefix.toLowerCase();
    const starts = items.filter(function (i) { return i.text.toLowerCase().indexOf(p) === 0; });
    const inside = items.filter(function (i) { return i.text.toLowerCase().indexOf(p) > 0; });
    return starts.concat(inside);
  }

  // Methods callable on a value of `type` (a CEL type name from the engine), or all when unknown.
  function memberItems(lang, type) {
    const generic = type && /^list\(/.test(type) ? "list(A)" : null;
    return lang.cel.functions.filter(function (f) {
      if (!f.member) return false;
      if (!type) return true;
      const on = f.receivers || [];
      return on.indexOf(type) >= 0 || on.indexOf("dyn") >= 0 || (generic && on.indexOf(generic) >= 0);
    }).map(functionItem);
  }

  function celItems(lang, inv, before) {
    let m = /device\.(attributes|capacity)\[\s*["']([^"']*)["']\s*\]\.(\w*)$/.exec(before);
    if (m) {
      const table = m[1] === "attributes" ? inv.attributes : inv.capacity;
      const domain = m[2];
      return { prefix: m[3], items: (table[domain] || []).map(function (n) {
        const type = m[1] === "attributes" ? ((inv.attributeTypes || {})[domain] || {})[n] : "kubernetes.Quantity";
        return item(n, (type ? type + " " : "") + (m[1] === "attributes" ? "attribute of " : "capacity of ") + domain, "name");
      }) };
    }
    m = /device\.(attributes|capacity)\[\s*["']([^"']*)["']\s*\]\.(\w+)\.(\w*)$/.exec(before);
    if (m) { // a method of the attribute's (or capacity's) type
      const type = m[1] === "capacity" ? "kubernetes.Quantity" : ((inv.attributeTypes || {})[m[2]] || {})[m[3]];
      return { prefix: m[4], items: memberItems(lang, type) };
    }
    m = /device\.(attributes|capacity)\[\s*["']([^"']*)$/.exec(before);
    if (m) {
      const table = m[1] === "attributes" ? inv.attributes : inv.capacity;
      return { prefix: m[2], items: Object.keys(table).map(function (d) {
        return item(d, table[d].length + " name" + (table[d].length === 1 ? "" : "s"), "domain");
      }) };
    }
    m = /device\.driver\s*(==|!=)\s*["']([^"']*)$/.exec(before);
    if (m) return { prefix: m[2], items: inv.drivers.map(function (d) { return item(d, "driver", "name"); }) };
    m = /\bdevice\.(\w*)$/.exec(before);
    if (m) {
      return { prefix: m[1], items: Object.keys(lang.cel.variables).filter(function (v) { return v.indexOf("device.") === 0; })
        .map(function (v) { return item(v.slice(7), lang.cel.variables[v], "field"); }) };
    }
    m = /\.(\w*)$/.exec(before);
    if (m) return { prefix: m[1], items: memberItems(lang, null) };
    m = /([\w.]*)$/.exec(before);
    const globals = lang.cel.functions.filter(function (f) { return !f.member; }).map(functionItem);
    globals.unshift(item("device", lang.cel.variables.device, "variable"));
    return { prefix: m[1], items: globals };
  }

  const VALUES = {
    allocationMode: ["ExactCount", "All"],
    operator: ["Equal", "Exists"],
    effect: ["NoSchedule", "NoExecute", "None"],
  };

  function yamlItems(cm, lang, inv, cur, before) {
    let m = /^\s*(-\s+)?(deviceClassName|driver|nodeName|apiVersion|kind|allocationMode|operator|effect):\s*["']?([\w.\/-]*)$/.exec(before);
    if (m) {
      const field = m[2], prefix = m[3];
      let values = [];
      if (field === "deviceClassName") values = inv.classes.map(function (c) { return item(c, "DeviceClass", "name"); });
      else if (field === "driver") values = inv.drivers.map(function (d) { return item(d, "driver", "name"); });
      else if (field === "nodeName") values = inv.nodes.map(function (n) { return item(n, "Node", "name"); });
      else if (field === "apiVersion") values = Object.keys(lang.schemas).map(function (v) { return item(v, "", "name"); });
      else if (field === "kind") {
        const schema = lang.schemas[documentHead(cm, cur.line).apiVersion];
        values = Object.keys(schema ? schema.kinds : {}).map(function (k) { return item(k, "", "name"); });
      } else values = VALUES[field].map(function (v) { return item(v, "", "name"); });
      return { prefix: prefix, items: values };
    }
    m = /^(\s*)(-\s+)?([\w]*)$/.exec(before);
    if (!m) return null;
    const col = m[1].length + (m[2] ? m[2].length : 0);
    const head = documentHead(cm, cur.line);
    const path = keyPath(cm, cur.line, col, !!m[2]);
    let fields;
    if (col === 0 && !m[2]) {
      fields = ["apiVersion", "kind", "metadata", "spec", "status"];
      const found = typeAt(lang, head, []);
      if (found) fields = Object.keys(found.schema.types[found.type]);
    } else {
      const found = typeAt(lang, head, path);
      if (!found) return { prefix: m[3], items: [] };
      fields = Object.keys(found.schema.types[found.type] || {});
    }
    const written = siblingKeys(cm, cur.line, col, !!m[2]);
    return { prefix: m[3], items: fields.filter(function (f) { return !written[f]; }).map(function (f) {
      const it = item(f + ": ", lang.fieldDocs[f], "field");
      it.label = f;
      return it;
    }) };
  }

  function hint(cm, callback) {
    const cur = cm.getCursor();
    const before = cm.getLine(cur.line).slice(0, cur.ch);
    Promise.all([loadLanguage(), loadNames().catch(function () {
      return { classes: [], drivers: [], nodes: [], attributes: {}, capacity: {} };
    })]).then(function (data) {
      const lang = data[0], inv = data[1];
      const found = inExpression(cm, cur.line, cur.ch) ? celItems(lang, inv, before) : yamlItems(cm, lang, inv, cur, before);
      if (!found) return callback(null);
      const list = filtered(found.items, found.prefix).slice(0, 200);
      callback(list.length ? { list: list, from: CodeMirror.Pos(cur.line, cur.ch - found.prefix.length), to: cur } : null);
    }, function () { callback(null); });
  }
  hint.async = true;

  function complete(cm) {
    cm.showHint({ hint: hint, completeSingle: false, closeCharacters: /[\s()\[\]{};>,]/ });
  }

  // ------------------------------------------------------------------ hover help

  let tip = null;

  function hideTip() { if (tip) tip.hidden = true; }

  function showTip(cm, pos, title, text) {
    if (!tip) {
      tip = document.createElement("div");
      tip.className = "editor-tip";
      tip.setAttribute("role", "tooltip");
      tip.id = "editor-tip";
      document.body.appendChild(tip);
    }
    tip.textContent = "";
    const code = document.createElement("code");
    code.textContent = title;
    tip.appendChild(code);
    tip.appendChild(document.createTextNode(" " + text));
    const at = cm.charCoords(pos, "page");
    tip.style.left = Math.max(0, Math.min(at.left, document.documentElement.clientWidth - 300)) + "px";
    tip.style.top = (at.bottom + 4) + "px";
    tip.hidden = false;
  }

  function docAt(lang, cm, pos) {
    const text = cm.getLine(pos.line);
    let start = pos.ch, end = pos.ch;
    while (start > 0 && /[\w.]/.test(text.charAt(start - 1))) start--;
    while (end < text.length && /[\w]/.test(text.charAt(end))) end++;
    const word = text.slice(start, end);
    if (!word) return null;
    if (inExpression(cm, pos.line, pos.ch)) {
      if (lang.cel.variables[word]) return { title: word, text: lang.cel.variables[word] };
      const name = word.split(".").pop();
      const fn = lang.cel.functions.filter(function (f) { return f.name === name || f.name === word; })[0];
      if (fn) return { title: fn.signature, text: fn.doc };
      return null;
    }
    const k = lineKey(text);
    if (k && k.key === word && start <= k.col + word.length && lang.fieldDocs[word]) {
      return { title: word, text: lang.fieldDocs[word] };
    }
    return null;
  }

  function onHover(cm, event) {
    loadLanguage().then(function (lang) {
      const pos = cm.coordsChar({ left: event.clientX, top: event.clientY }, "window");
      const coords = cm.charCoords(pos, "window");
      if (Math.abs(coords.top - event.clientY) > 30 && Math.abs(coords.bottom - event.clientY) > 30) return hideTip();
      const doc = docAt(lang, cm, pos);
      if (doc) showTip(cm, pos, doc.title, doc.text); else hideTip();
    }, hideTip);
  }

  function attach(cm) {
    let pending = null;
    const wrapper = cm.getWrapperElement();
    wrapper.addEventListener("mousemove", function (event) {
      clearTimeout(pending);
      pending = setTimeout(function () { onHover(cm, event); }, 150);
    });
    wrapper.addEventListener("mouseleave", function () { clearTimeout(pending); hideTip(); });
    cm.on("keydown", hideTip);
    cm.on("scroll", hideTip);
  }

  window.DRAEditorHelp = { attach: attach, complete: complete };
})();
