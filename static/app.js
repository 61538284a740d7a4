// qb2gnucash: the little the pages need beyond htmx: drag-and-drop (files, the Map step's
// accounts), upload progress, confirms, the Map step's save indicator, scroll positions and
// keyboard focus across a region's change.
(function () {
  "use strict";

  document.addEventListener("submit", function (e) {
    var text = e.target.getAttribute && e.target.getAttribute("data-confirm");
    if (text && !window.confirm(text)) { e.preventDefault(); e.stopPropagation(); }
  }, true);

  document.addEventListener("click", function (e) {
    if (e.target.hasAttribute && e.target.hasAttribute("data-back")) { history.back(); }
  });

  // Settings and rules are saved as soon as they change. A link followed while such a save is
  // still on its way waits for it: otherwise the next page (and the import started there) could
  // miss what was just chosen, or the browser could abort the save. Each request is counted
  // until its XHR ends ("loadend": answered, failed or aborted), not until htmx:afterRequest,
  // which htmx skips when the element that sent it is gone (a check typed just before "Apply"
  // re-rendered the region), and which would leave the link waiting for ever.
  // The Map step's "Saving…" / "All changes saved" (#save-state, htmx's indicator of the #map
  // region): a change that was refused says so there until the next one is saved.
  var saving = 0;
  var next = null;
  document.addEventListener("htmx:beforeSend", function (e) {
    var holder = e.detail.elt.closest && e.detail.elt.closest("[hx-indicator]");
    var saves = !!holder && holder.getAttribute("hx-indicator") === "#save-state";
    var xhr = e.detail.xhr;
    saving += 1;
    xhr.addEventListener("loadend", function () {
      var state = document.getElementById("save-state");
      if (state && saves && xhr.status) { state.classList.toggle("failed", xhr.status >= 400); }
      saving = Math.max(0, saving - 1);
      if (!saving && next) { var href = next; next = null; window.location.assign(href); }
    });
  });
  // A change the browser refused to send (a form field's own check) is not saved: say so,
  // never "All changes saved" (the server's message, once sent, says what is wrong).
  document.addEventListener("htmx:validation:halted", function (e) {
    var holder = e.detail.elt.closest && e.detail.elt.closest("[hx-indicator]");
    var state = document.getElementById("save-state");
    if (state && holder && holder.getAttribute("hx-indicator") === "#save-state") {
      state.classList.add("failed");
    }
  });
  document.addEventListener("click", function (e) {
    var link = e.target.closest && e.target.closest("a[href]");
    if (!saving || !link || e.defaultPrevented || link.target || link.hasAttribute("download") ||
        e.button !== 0 || e.ctrlKey || e.metaKey || e.shiftKey || e.altKey ||
        link.origin !== window.location.origin || link.hash && link.pathname === window.location.pathname) {
      return;
    }
    e.preventDefault();
    next = link.href;
    document.body.classList.add("waiting");
  });

  // Every change on the Map step re-renders the #map region: the page and the tree (a scrolled
  // box of its own) keep their scroll positions instead of jumping back to the top.
  var scrolled = null;
  document.addEventListener("htmx:beforeSwap", function (e) {
    if (!e.detail.target || e.detail.target.id !== "map") { return; }
    var tree = document.getElementById("tree");
    scrolled = { x: window.scrollX, y: window.scrollY, tree: tree ? tree.scrollTop : 0 };
  });
  document.addEventListener("htmx:afterSwap", function () {
    if (!scrolled) { return; }
    var tree = document.getElementById("tree");
    if (tree) { tree.scrollTop = scrolled.tree; }
    window.scrollTo(scrolled.x, scrolled.y);
    scrolled = null;
  });

  // A link outside a region that htmx re-renders carries that region's state as the address
  // has it now (data-keep: the query keys to take from it): the Preview's chart titles keep the
  // transactions' search, page and order after a page turned in their region.
  document.addEventListener("click", function (e) {
    var link = e.target.closest && e.target.closest("a[data-keep]");
    if (!link) { return; }
    var now = new URLSearchParams(window.location.search);
    var url = new URL(link.href, window.location.href);
    link.getAttribute("data-keep").split(" ").forEach(function (key) {
      if (now.get(key)) { url.searchParams.set(key, now.get(key)); } else { url.searchParams.delete(key); }
    });
    link.href = url.toString();
  }, true);

  // A region re-rendered by a change keeps the keyboard focus where it was: on the same control
  // (by id, else by its form and name), else, when that control is gone (a file or a change
  // removed), on the region's status message ([data-status]: "Removed ...", "Undone: ..."), else
  // on the region itself. Without scrolling: the scroll positions are kept above.
  var focused = null;
  document.addEventListener("htmx:beforeSwap", function (e) {
    var el = document.activeElement;
    if (!el || el === document.body || !e.detail.target || !e.detail.target.contains(el)) {
      focused = null;
      return;
    }
    focused = { id: el.id, form: el.form && el.form.id, name: el.name, value: el.value };
  });
  document.addEventListener("htmx:afterSettle", function (e) {
    if (!focused) { return; }
    var was = focused;
    focused = null;
    if (document.activeElement && document.activeElement !== document.body) { return; }
    var region = e.detail.target && document.getElementById(e.detail.target.id) || e.detail.target;
    var again = was.id && document.getElementById(was.id);
    if (!again && was.form && was.name) {
      var named = document.querySelectorAll("#" + was.form + " [name='" + was.name + "']");
      again = Array.prototype.find.call(named, function (n) {
        return n.type !== "radio" || n.value === was.value;
      });
    }
    var target = again || (region && region.querySelector("[data-status]")) || region;
    if (!target) { return; }
    if (!target.hasAttribute("tabindex") && !again) { target.setAttribute("tabindex", "-1"); }
    target.focus({ preventScroll: true });
  });

  // A message from an earlier failed action goes away once an action succeeds; an earlier
  // action's "Saved: ..." goes away once one fails (both stood together: hunt 23).
  document.addEventListener("htmx:beforeSwap", function (e) {
    var box = document.getElementById("messages");
    var verb = (e.detail.requestConfig && e.detail.requestConfig.verb) || "get";
    if (box && e.detail.xhr.status < 400 && verb !== "get") { box.innerHTML = ""; }
    if (e.detail.xhr.status >= 400 && verb !== "get") {
      document.querySelectorAll(".message.ok[data-status]").forEach(function (m) { m.remove(); });
    }
  });

  // The Map step's tree: a QuickBooks account's row (tr[data-origin]), or a parent made on the
  // Map step (tr[data-path]: its accounts go with it), dragged onto another row moves it under
  // that account, or onto the header (tr[data-top]) to the top level. The drop posts what the
  // row's Change… form posts for choosing that parent (its account, or its path and name, and
  // the parent only), to the same address; the server refuses what its "Under" list would not offer
  // (itself, an account under it, one gone), in the page's messages, and re-renders #map.
  // The row hovered is highlighted (.drop-target), the one dragged dimmed (.dragging).
  document.documentElement.classList.add("js"); // the tree's drag hint is shown (app.css)
  var dragged = null; // the row being dragged
  function dropRow(e) {
    var row = dragged && e.target.closest && e.target.closest("#tree-table tr[data-account], #tree-table tr[data-top]");
    return row && row.closest("#tree-table") === dragged.closest("#tree-table") ? row : null;
  }
  function undrop() {
    document.querySelectorAll("#tree-table .drop-target").forEach(function (r) { r.classList.remove("drop-target"); });
  }
  document.addEventListener("dragstart", function (e) {
    var row = e.target.closest && e.target.closest("#tree-table tr[data-origin], #tree-table tr[data-path]");
    if (!row) { return; }
    dragged = row;
    row.classList.add("dragging");
    e.dataTransfer.effectAllowed = "move";
    e.dataTransfer.setData("text/plain", row.getAttribute("data-account"));
  });
  document.addEventListener("dragover", function (e) {
    var row = dropRow(e);
    if (!row) { return; }
    e.preventDefault();
    e.dataTransfer.dropEffect = "move";
    if (!row.classList.contains("drop-target")) { undrop(); row.classList.add("drop-target"); }
  });
  document.addEventListener("dragleave", function (e) {
    var row = dropRow(e);
    if (row && !row.contains(e.relatedTarget)) { row.classList.remove("drop-target"); }
  });
  document.addEventListener("dragend", function () {
    undrop();
    if (dragged) { dragged.classList.remove("dragging"); }
    dragged = null;
  });
  document.addEventListener("drop", function (e) {
    var row = dropRow(e);
    if (!row) { return; }
    e.preventDefault();
    var from = dragged;
    undrop();
    dragged.classList.remove("dragging");
    dragged = null;
    moveUnder(from, row);
  });
  // Posts "account ``from`` goes under ``row``" (the header row: the top level), as the drop and
  // the Move… button do; from the table: its region's target, swap, "Saving…" indicator and CSRF
  // header.
  function moveUnder(from, row) {
    var table = row.closest("#tree-table");
    var parent = row.hasAttribute("data-top") ? "" : row.getAttribute("data-account");
    var path = from.getAttribute("data-path");
    var values = path === null ? { account: from.getAttribute("data-origin"), parent: parent }
      : { path: path, name: path.split(":").pop(), parent: parent };
    htmx.ajax("POST", table.getAttribute("data-move"), { source: table, values: values });
  }

  // The same move without a mouse (the keyboard, or a touch screen, where rows are not dragged):
  // a row's Move… button picks its account up (.dragging); the rows it may go under (not itself,
  // not its own sub-accounts) become choosable: Up and Down (Home, End) go through them, the one
  // chosen highlighted as under a drag and focused; Enter, or a click or tap on a row, puts it
  // there; Escape, or Move… again, leaves it where it is. #tree-move says what is happening.
  var moving = null; // the row picked up by its Move… button
  function moveSay(text) {
    var box = document.getElementById("tree-move");
    if (box) { box.textContent = text; }
  }
  function moveTargets() {
    var name = moving.getAttribute("data-account");
    var rows = moving.closest("#tree-table").querySelectorAll("tr[data-top], tr[data-account]:not(.editing)");
    return Array.prototype.filter.call(rows, function (r) {
      var a = r.getAttribute("data-account");
      return a === null || (a !== name && a.indexOf(name + ":") !== 0);
    });
  }
  function moveChoose(row, stay) {
    undrop();
    row.classList.add("drop-target");
    row.focus({ preventScroll: true });
    // (centred: not under the status box at the bottom); ``stay``: the pick-up, which keeps
    // the account picked up in sight though its parent (the header, for one at the top
    // level) may be far above it
    if (!stay) { row.scrollIntoView({ block: "center" }); }
    var under = row.hasAttribute("data-top") ? "the top level" : "“" + row.getAttribute("data-account") + "”";
    moveSay("Moving “" + moving.getAttribute("data-account") + "”: under " + under + "? Enter puts it there; Up and Down, or the first letters of a name, choose another; Escape leaves it where it is.");
  }
  function moveStop(said) {
    if (!moving) { return; }
    undrop();
    moving.classList.remove("dragging");
    moving.closest("#tree-table").querySelectorAll("tr[tabindex]").forEach(function (r) { r.removeAttribute("tabindex"); });
    var button = moving.querySelector("button.move");
    if (button) { button.setAttribute("aria-pressed", "false"); button.focus(); }
    moving = null;
    moveSay(said);
  }
  function moveGone() { // the tree was re-rendered under a move: it is over
    if (moving && !document.contains(moving)) { moving = null; }
    return !moving;
  }
  function movePut(row) {
    var from = moving;
    var current = from.getAttribute("data-account").split(":").slice(0, -1).join(":");
    var chosen = row.hasAttribute("data-top") ? "" : row.getAttribute("data-account");
    if (chosen === current) {
      moveStop("“" + from.getAttribute("data-account") + "” stays where it is.");
      return;
    }
    moveStop("");
    var leaf = from.getAttribute("data-account").split(":").pop();
    movedTo = chosen ? chosen + ":" + leaf : leaf; // focused again once the tree is re-rendered
    moveUnder(from, row);
  }
  var movedTo = null; // the account just moved with Move…: its new row gets the focus
  var typed = "", typedAt = 0; // the letters typed to jump to a row (type-ahead)
  document.addEventListener("htmx:afterSettle", function () {
    if (!movedTo) { return; }
    var rows = document.querySelectorAll("#tree-table tr[data-account]");
    var row = Array.prototype.filter.call(rows, function (r) { return r.getAttribute("data-account") === movedTo; })[0];
    movedTo = null;
    var button = row && row.querySelector("button.move");
    if (button) { button.focus({ preventScroll: true }); row.scrollIntoView({ block: "center" }); }
  });
  function leafOf(row) {
    return row.hasAttribute("data-top") ? "" : row.getAttribute("data-account").split(":").pop().toLowerCase();
  }
  document.addEventListener("click", function (e) {
    var button = e.target.closest && e.target.closest("#tree-table button.move");
    moveGone();
    if (button) {
      var row = button.closest("tr");
      if (moving === row) { moveStop("“" + row.getAttribute("data-account") + "” stays where it is."); return; }
      moveStop("");
      moving = row;
      row.classList.add("dragging");
      button.setAttribute("aria-pressed", "true");
      var rows = moveTargets();
      rows.forEach(function (r) { r.setAttribute("tabindex", "-1"); });
      var parent = row.getAttribute("data-account").split(":").slice(0, -1).join(":");
      var start = rows.filter(function (r) { return (r.getAttribute("data-account") || "") === parent; })[0];
      moveChoose(start || rows[0], true);
      return;
    }
    if (!moving) { return; }
    var target = e.target.closest && e.target.closest("#tree-table tr[tabindex]");
    if (target && !(e.target.closest("button, a, input, select"))) { e.preventDefault(); movePut(target); }
  });
  document.addEventListener("keydown", function (e) {
    if (moveGone()) { return; }
    var rows = moveTargets();
    var at = rows.indexOf(document.activeElement);
    var next = { ArrowDown: at + 1, ArrowUp: at - 1, Home: 0, End: rows.length - 1 }[e.key];
    if (next !== undefined) {
      e.preventDefault();
      moveChoose(rows[Math.max(0, Math.min(rows.length - 1, next < 0 && at < 0 ? 0 : next))]);
    } else if (e.key === "Enter" && at >= 0) {
      e.preventDefault();
      movePut(rows[at]);
    } else if (e.key === "Escape") {
      e.preventDefault();
      moveStop("“" + moving.getAttribute("data-account") + "” stays where it is.");
    } else if (e.key.length === 1 && !e.ctrlKey && !e.metaKey && !e.altKey && e.key !== " ") {
      // type-ahead: the next row (after the one chosen) whose own name starts with the letters
      // typed within a second
      e.preventDefault();
      var now = Date.now();
      typed = (now - typedAt < 1000 ? typed : "") + e.key.toLowerCase();
      typedAt = now;
      var order = rows.slice(at + (typed.length > 1 ? 0 : 1)).concat(rows.slice(0, at + (typed.length > 1 ? 0 : 1)));
      var hit = order.filter(function (r) { return leafOf(r).indexOf(typed) === 0; })[0];
      if (hit) { moveChoose(hit); }
    }
  });

  function uploadForm() { return document.getElementById("upload-form"); }

  document.addEventListener("dragover", function (e) {
    var form = uploadForm();
    if (form && form.contains(e.target)) { e.preventDefault(); form.classList.add("over"); }
  });
  document.addEventListener("dragleave", function (e) {
    var form = uploadForm();
    if (form && e.target === form) { form.classList.remove("over"); }
  });
  document.addEventListener("drop", function (e) {
    var form = uploadForm();
    if (!form || !form.contains(e.target)) { return; }
    e.preventDefault();
    form.classList.remove("over");
    var input = document.getElementById("file-input");
    input.files = e.dataTransfer.files;
    input.dispatchEvent(new Event("change", { bubbles: true }));
  });

  // The upload's bar (#upload-progress, the same bar as the import's): shown as the files go,
  // then asked of the server every 400 ms (one question at a time) with what the browser has
  // sent so far; the server answers the whole region, its phase and one percentage over
  // sending, reading and checking. An answer lower than the one shown is never swapped in.
  var upload = null; // { id, started, sent, size, timer }
  var blank = null; // the bar as the page came, at 0 %: put back after each upload
  document.addEventListener("htmx:configRequest", function (e) {
    var form = uploadForm();
    if (!form || e.detail.elt !== form) { return; }
    var id = Date.now().toString(36) + "-" + Math.random().toString(36).slice(2, 10);
    e.detail.headers["X-Upload-Id"] = id;
    upload = { id: id, started: Date.now(), sent: 0, size: 0, timer: null };
    var panel = document.getElementById("upload-progress");
    if (panel) { blank = blank || panel.outerHTML; panel.hidden = false; }
    ask(upload);
  });
  document.addEventListener("htmx:xhr:progress", function (e) {
    var form = uploadForm();
    if (!form || e.target !== form || !e.detail.lengthComputable || !upload) { return; }
    upload.sent = e.detail.loaded;
    upload.size = e.detail.total;
  });
  function ask(now) {
    var form = uploadForm();
    if (!form || upload !== now) { return; }
    var query = new URLSearchParams({
      upload: now.id, sent: now.sent, size: now.size, elapsed: (Date.now() - now.started) / 1000
    });
    fetch(form.getAttribute("data-reading") + "?" + query, { credentials: "same-origin" })
      .then(function (r) { return r.ok ? r.text() : ""; })
      .then(function (html) { if (upload === now && html) { show(html); } })
      .catch(function () {})
      .then(function () { if (upload === now) { now.timer = window.setTimeout(ask, 400, now); } });
  }
  function show(html) {
    var panel = document.getElementById("upload-progress");
    var next = document.createElement("div");
    next.innerHTML = html.trim();
    var fresh = next.firstElementChild;
    if (!panel || !fresh) { return; }
    if (+fresh.getAttribute("data-percent") < +panel.getAttribute("data-percent")) { return; }
    fresh.hidden = false;
    panel.replaceWith(fresh);
  }
  document.addEventListener("htmx:afterRequest", function (e) {
    var form = uploadForm();
    if (!form || e.target !== form) { return; }
    if (upload && upload.timer) { window.clearTimeout(upload.timer); }
    upload = null;
    var panel = document.getElementById("upload-progress");
    if (panel && blank) { panel.outerHTML = blank; }
    document.getElementById("file-input").value = "";
  });
})();
