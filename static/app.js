// qb2gnucash: the little the pages need beyond htmx: drag-and-drop, upload progress, confirms.
(function () {
  "use strict";

  document.addEventListener("submit", function (e) {
    var text = e.target.getAttribute && e.target.getAttribute("data-confirm");
    if (text && !window.confirm(text)) { e.preventDefault(); e.stopPropagation(); }
  }, true);

  document.addEventListener("click", function (e) {
    if (e.target.hasAttribute && e.target.hasAttribute("data-back")) { history.back(); }
  });

  // "change" beside an account of the resulting tree: pick it in the form on the left.
  document.addEventListener("click", function (e) {
    var pick = e.target.closest && e.target.closest("button.pick");
    if (!pick) { return; }
    var select = document.getElementById("rule-account");
    select.value = pick.getAttribute("data-pick");
    document.getElementById("rules").scrollIntoView({ behavior: "smooth" });
    document.getElementById("rule-target").focus();
  });

  // A message from an earlier failed action goes away once an action succeeds.
  document.addEventListener("htmx:beforeSwap", function (e) {
    var box = document.getElementById("messages");
    var verb = (e.detail.requestConfig && e.detail.requestConfig.verb) || "get";
    if (box && e.detail.xhr.status < 400 && verb !== "get") { box.innerHTML = ""; }
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

  document.addEventListener("htmx:xhr:progress", function (e) {
    var form = uploadForm();
    if (!form || e.target !== form || !e.detail.lengthComputable) { return; }
    var bar = document.getElementById("upload-progress");
    var pct = Math.round(100 * e.detail.loaded / e.detail.total);
    bar.hidden = false;
    bar.value = pct;
    document.getElementById("upload-status").textContent =
      pct < 100 ? "Uploading… " + pct + " %" : "Reading the files…";
  });
  document.addEventListener("htmx:afterRequest", function (e) {
    var form = uploadForm();
    if (!form || e.target !== form) { return; }
    document.getElementById("upload-progress").hidden = true;
    document.getElementById("upload-status").textContent = "";
    document.getElementById("file-input").value = "";
  });
})();
