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

  // The keys of the mapping that holds the key at column `col` on `line` (that line included), each with
  // the line it is on and the text after its colon.
  function siblingEntries(cm, line, col) {
    const entries = {};
    const own = lineKey(cm.getLine(line));
    if (own) entries[own.key] = { line: line, rest: own.rest };
    if (own && own.dash >= 0) return Object.assign(siblingBelow(cm, line, col), entries);
    return Object.assign(siblingBelow(cm, line, col), siblingAbove(cm, line, col), entries);
  }

  function siblingAbove(cm, line, col) {
    const entries = {};
    const first = documentRange(cm, line).first;
    for (let i = line - 1; i >= first; i--) {
      const text = cm.getLine(i);
      if (!text.trim() || /^\s*#/.test(text)) continue;
      const k = lineKey(text);
      if (k && k.col === col) entries[k.key] = { line: i, rest: k.rest };
      if (k && k.dash >= 0 && k.col === col) break; // the item's first key
      if (/^\s*/.exec(text)[0].length < col) break;
    }
    return entries;
  }

  function siblingBelow(cm, line, col) {
    const entries = {};
    const last = documentRange(cm, line).last;
    for (let i = line + 1; i <= last; i++) {
      const text = cm.getLine(i);
      if (!text.trim() || /^\s*#/.test(text)) continue;
      const k = lineKey(text);
      if (k && k.dash >= 0 && k.col === col) break; // the next item
      if (/^\s*/.exec(text)[0].length < col) break;
      if (k && k.col === col) entries[k.key] = { line: i, rest: k.rest };
    }
    return entries;
  }

  function scalar(rest) {
    const m = /^["']?([^"'#\s]*)/.exec(rest || "");
    return m ? m[1] : "";
  }

  // The DeviceClass whose devices a CEL expression on `line` is about: the request's deviceClassName,
  // or the DeviceClass the expression is a selector of. "" when unknown.
  function classOfExpression(cm, line) {
    const head = documentHead(cm, line);
    const range = documentRange(cm, line);
    if (head.kind === "DeviceClass") {
      for (let i = range.first; i <= range.last; i++) {
        if (/^metadata:\s*$/.test(cm.getLine(i))) {
          for (let j = i + 1; j <= range.last && /^\s/.test(cm.getLine(j)); j++) {
            const k = lineKey(cm.getLine(j));
            if (k && k.key === "name") return scalar(k.rest);
          }
        }
      }
      return "";
    }
    const indent = /^\s*/.exec(cm.getLine(line))[0].length;
    for (let i = line - 1; i >= range.first; i--) {
      const k = lineKey(cm.getLine(i));
      if (k && k.key === "selectors" && k.col < indent) {
        const entry = siblingEntries(cm, i, k.col).deviceClassName;
        return entry ? scalar(entry.rest) : "";
      }
    }
    return "";
  }

  // request name -> its DeviceClass, for the requests of the document around `line` (a firstAvailable
  // subrequest's class counts for its request too, under both names: "gpu" and "gpu/small").
  function requestClasses(cm, line) {
    const range = documentRange(cm, line);
    const found = {};
    let stack = []; // [{name, col}] of the request items the scan is inside
    for (let i = range.first; i <= range.last; i++) {
      const text = cm.getLine(i);
      if (!text.trim() || /^\s*#/.test(text)) continue;
      const indent = /^\s*/.exec(text)[0].length;
      const k = lineKey(text);
      stack = stack.filter(function (r) { return r.col < indent; }); // a line at or left of an item ends it
      if (k && k.key === "name" && k.dash >= 0) {
        stack = stack.filter(function (r) { return r.col < k.dash; });
        stack.push({ name: scalar(k.rest), col: k.dash });
      } else if (k && k.key === "deviceClassName" && stack.length) {
        const names = stack.map(function (r) { return r.name; });
        for (let n = 1; n <= names.length; n++) {
          const name = names.slice(0, n).join("/");
          (found[name] = found[name] || []).push(scalar(k.rest));
        }
      }
    }
    return found;
  }

  // The classes of the requests a constraint (the mapping holding the key on `line`) applies to: those
  // its `requests` lists, or all the claim's requests.
  function constraintClasses(cm, line, col) {
    const requests = requestClasses(cm, line);
    const entry = siblingEntries(cm, line, col).requests;
    let names = [];
    if (entry && /^\[/.test(entry.rest)) {
      names = entry.rest.replace(/[\[\]"']/g, "").split(",").map(function (n) { return n.trim(); }).filter(Boolean);
    } else if (entry) {
      for (let i = entry.line + 1; i < cm.lineCount(); i++) {
        const m = /^\s*-\s+["']?([\w.\/-]+)["']?\s*$/.exec(cm.getLine(i));
        if (!m) break;
        names.push(m[1]);
      }
    }
    if (!names.length) names = Object.keys(requests);
    const classes = [];
    names.forEach(function (n) { (requests[n] || []).forEach(function (c) { if (classes.indexOf(c) < 0) classes.push(c); }); });
    return classes;
  }

  // `domains` with those the classes' devices publish names in first (the engine orders them: the
  // classes' drivers, then the other domains), the rest after.
  function classFirst(domains, inv, classes) {
    const preferred = [];
    classes.forEach(function (c) {
      ((inv.classInfo || {})[c] || { domains: [] }).domains.forEach(function (d) {
        if (domains.indexOf(d) >= 0 && preferred.indexOf(d) < 0) preferred.push(d);
      });
    });
    return { first: preferred, all: preferred.concat(domains.filter(function (d) { return preferred.indexOf(d) < 0; })) };
  }

  // The stats the engine sent for an attribute or capacity name, over the class's devices when the class is
  // known; a line of text (or null when the inventory has no such name).
  function statsText(inv, table, domain, name, cls) {
    const get = function (stats) { return (((stats || {})[table] || {})[domain] || {})[name]; };
    const info = cls ? (inv.classInfo || {})[cls] : null;
    const mine = info && get(info.stats);
    if (mine) return mine.text;
    const all = get(inv.stats);
    if (!all) {
      const known = ((table === "attributes" ? inv.attributes : inv.capacity)[domain] || []).indexOf(name) >= 0;
      return known ? "Published by devices in the inventory (too many names to count them all here)." : null;
    }
    if (!info || (info.stats || {}).complete === false) return all.text;
    return "No device of class " + cls + " publishes it (" + info.devices + " device" + (info.devices === 1 ? "" : "s") +
      "). " + all.text;
  }

  // Is `line` inside a CEL expression (after `expression:` or in its block scalar)?
  function inExpression(cm, line, ch) {
    if (cm.state.celOnly) return true; // the expression console: all of it is CEL
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

  // Items starting with the prefix, then those containing it; `keepOrder`: in the given order only.
  function filtered(items, prefix, keepOrder) {
    const p = prefix.toLowerCase();
    if (keepOrder) return items.filter(function (i) { return i.text.toLowerCase().indexOf(p) >= 0; });
    const starts = items.filter(function (i) { return i.text.toLowerCase().indexOf(p) === 0; });
    const inside = items.filter(function (i) { return i.text.toLowerCase().indexOf(p) > 0; });
    return starts.concat(inside);
  }

  // What the editor knows of an inventory it has not read (or could not).
  const NO_NAMES = { classes: [], drivers: [], nodes: [], attributes: {}, capacity: {}, devices: 0, stats: {}, classInfo: {} };

  function namesOrNone() {
    return loadNames().catch(function () { return NO_NAMES; });
  }

  // Methods callable on a value of `type` (a CEL type name from the engine), or all when unknown. Those
  // declared on any value (dyn: includes()) are for attributes: offered on an attribute (`attribute`), not
  // on a capacity or a quantity(...) result.
  function memberItems(lang, type, attribute) {
    const generic = type && /^list\(/.test(type) ? "list(A)" : null;
    return lang.cel.functions.filter(function (f) {
      if (!f.member) return false;
      if (!type) return true;
      const on = f.receivers || [];
      return on.indexOf(type) >= 0 || (attribute && on.indexOf("dyn") >= 0) || (generic && on.indexOf(generic) >= 0);
    }).map(functionItem);
  }

  // The value a constructor call just before the dot makes: quantity("1Gi"). and semver("1.2.3").
  const MADE_BY = { quantity: "kubernetes.Quantity", semver: "kubernetes.Semver" };

  function celItems(lang, inv, before, after, cls) {
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
      return { prefix: m[4], items: memberItems(lang, type, m[1] === "attributes") };
    }
    m = /\b(quantity|semver)\(\s*(["'])[^"']*\2\s*\)\.(\w*)$/.exec(before);
    if (m) return { prefix: m[3], items: memberItems(lang, MADE_BY[m[1]], false) };
    m = /device\.(attributes|capacity)\[\s*(["'])([^"']*)$/.exec(before);
    if (m) { // a domain: the class's first, and the closing quote and bracket with it
      const table = m[1] === "attributes" ? inv.attributes : inv.capacity;
      const quote = m[2];
      const order = classFirst(Object.keys(table), inv, cls ? [cls] : []);
      const rest = new RegExp("^[\\w.\\/-]*" + quote + "?\\s*\\]?").exec(after)[0];
      return { prefix: m[3], keepOrder: true, replaceAfter: rest.length, items: order.all.map(function (d) {
        const it = item(d + quote + "]", table[d].length + " name" + (table[d].length === 1 ? "" : "s") +
          (order.first.indexOf(d) >= 0 ? ", published by devices of class " + cls : ""), "domain");
        it.label = d;
        return it;
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

  // matchAttribute and distinctAttribute: the fully qualified names devices publish, the constraint's
  // requests' classes' domains first.
  function constraintItems(cm, inv, cur, before) {
    const m = /^(\s*)(-\s+)?(matchAttribute|distinctAttribute):\s*["']?([\w.\/-]*)$/.exec(before);
    if (!m) return null;
    const col = m[1].length + (m[2] ? m[2].length : 0);
    const classes = constraintClasses(cm, cur.line, col);
    const order = classFirst(Object.keys(inv.attributes), inv, classes);
    const items = [];
    order.all.forEach(function (d) {
      inv.attributes[d].forEach(function (n) {
        const stats = ((inv.stats || {}).attributes || {})[d] || {};
        const s = stats[n];
        items.push(item(d + "/" + n, (s ? s.type + ", published by " + s.devices + " of " + inv.devices + " devices" : "") +
          (order.first.indexOf(d) >= 0 ? "; class " + classes.join(", ") : ""), "name"));
      });
    });
    return { prefix: m[4], keepOrder: true, items: items };
  }

  function yamlItems(cm, lang, inv, cur, before) {
    const constraint = constraintItems(cm, inv, cur, before);
    if (constraint) return constraint;
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
    const text = cm.getLine(cur.line);
    const before = text.slice(0, cur.ch);
    Promise.all([loadLanguage(), namesOrNone()]).then(function (data) {
      const lang = data[0], inv = data[1];
      const found = inExpression(cm, cur.line, cur.ch)
        ? celItems(lang, inv, before, text.slice(cur.ch), classOfExpression(cm, cur.line))
        : yamlItems(cm, lang, inv, cur, before);
      if (!found) return callback(null);
      const list = filtered(found.items, found.prefix, found.keepOrder).slice(0, 200);
      const to = CodeMirror.Pos(cur.line, cur.ch + (found.replaceAfter || 0));
      callback(list.length ? { list: list, from: CodeMirror.Pos(cur.line, cur.ch - found.prefix.length), to: to } : null);
    }, function () { callback(null); });
  }
  hint.async = true;

  function complete(cm) {
    cm.showHint({ hint: hint, completeSingle: false, closeCharacters: /[\s()\[\]{};>,]/ });
  }

  // ------------------------------------------------------------------ hover help

  let tip = null;

  function hideTip() {
    if (!tip || tip.hidden) return;
    tip.hidden = true;
    document.querySelectorAll("[aria-describedby='editor-tip']").forEach(function (el) { el.removeAttribute("aria-describedby"); });
  }

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

  function docAt(lang, inv, cm, pos) {
    const text = cm.getLine(pos.line);
    if (text === undefined) return null; // the line is gone: the text changed while the help data loaded
    let start = pos.ch, end = pos.ch;
    while (start > 0 && /[\w.]/.test(text.charAt(start - 1))) start--;
    while (end < text.length && /[\w]/.test(text.charAt(end))) end++;
    const word = text.slice(start, end);
    if (!word) return null;
    if (inExpression(cm, pos.line, pos.ch)) {
      // An attribute or capacity name: its type and what the devices in reach publish (engine's words).
      const access = /device\.(attributes|capacity)\[\s*["']([^"']*)["']\s*\](?:\.(\w+)|\[\s*["'](\w+)["']\s*\])$/
        .exec(text.slice(0, end + (text.charAt(end) === '"' || text.charAt(end) === "'" ? 2 : 0)).replace(/\s+$/, ""));
      if (access && (access[3] || access[4]) === word.split(".").pop()) {
        const name = access[3] || access[4];
        const line = statsText(inv, access[1], access[2], name, classOfExpression(cm, pos.line));
        return { title: access[2] + "/" + name, text: line || "No device in the inventory publishes it." };
      }
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
    // The value of matchAttribute or distinctAttribute: a fully qualified attribute name.
    const constraint = /^(\s*(?:-\s+)?(?:matchAttribute|distinctAttribute):\s*["']?)([\w.-]+)\/(\w+)/.exec(text);
    if (constraint && pos.ch >= constraint[1].length && pos.ch <= constraint[0].length) {
      const classes = constraintClasses(cm, pos.line, k ? k.col : 0);
      const line = statsText(inv, "attributes", constraint[2], constraint[3], classes.length === 1 ? classes[0] : "");
      return { title: constraint[2] + "/" + constraint[3], text: line || "No device in the inventory publishes it." };
    }
    return null;
  }

  // The inventory's names cost the site an analysis: a mouse passing over the editor asks for them only
  // over a line that reads device attributes or capacity, or names a constraint's attribute.
  const NEEDS_NAMES = /device\.(attributes|capacity)|matchAttribute|distinctAttribute/;

  function onHover(cm, event) {
    const pos = cm.coordsChar({ left: event.clientX, top: event.clientY }, "window");
    const inventory = NEEDS_NAMES.test(cm.getLine(pos.line) || "") ? namesOrNone() : Promise.resolve(NO_NAMES);
    Promise.all([loadLanguage(), inventory]).then(function (data) {
      const coords = cm.charCoords(pos, "window");
      if (Math.abs(coords.top - event.clientY) > 30 && Math.abs(coords.bottom - event.clientY) > 30) return hideTip();
      const doc = docAt(data[0], data[1], cm, pos);
      if (doc) showTip(cm, pos, doc.title, doc.text); else hideTip();
    }, hideTip);
  }

  // The same help from the keyboard (Ctrl-I): for the name at the cursor, read out with the editor.
  function helpAtCursor(cm) {
    Promise.all([loadLanguage(), namesOrNone()]).then(function (data) {
      const pos = cm.getCursor();
      const doc = docAt(data[0], data[1], cm, pos);
      if (!doc) return hideTip();
      showTip(cm, pos, doc.title, doc.text);
      cm.getInputField().setAttribute("aria-describedby", "editor-tip");
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
    cm.on("blur", hideTip);
    cm.addKeyMap({ "Ctrl-I": helpAtCursor, "Cmd-I": helpAtCursor });
  }

  window.DRAEditorHelp = { attach: attach, complete: complete };
})();
