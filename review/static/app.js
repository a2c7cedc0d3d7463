// Keyboard shortcuts for the review app: every decision and moving through the queue without the mouse.
"use strict";

function typing(target) {
  const tag = target.tagName;
  return tag === "INPUT" && target.type !== "radio" && target.type !== "checkbox" || tag === "TEXTAREA" || tag === "SELECT";
}

function go(id) {
  const link = document.getElementById(id);
  if (link) window.location.href = link.href;
}

function itemKeys(event) {
  const reject = document.getElementById("reject-form");
  const fix = document.getElementById("fix-form");
  if (event.key === "Escape") { document.activeElement.blur(); return true; }
  if (typing(event.target)) {
    if (event.key === "Enter" && (event.ctrlKey || event.metaKey) && fix.contains(event.target)) {
      fix.requestSubmit(); return true;
    }
    if (event.key === "Enter" && event.target.id === "reject-comment") {
      if (!reject.querySelector("input[name=reason]:checked")) reject.querySelector("input[value=other]").checked = true;
      reject.requestSubmit(); return true;
    }
    return false;
  }
  if (event.ctrlKey || event.metaKey || event.altKey) return false;
  const key = event.key;
  if (key === "a") { document.getElementById("accept-form").requestSubmit(); return true; }
  if (/^[1-9]$/.test(key)) {
    const choice = reject.querySelector(`input[data-key="${key}"]`);
    if (choice) { choice.checked = true; reject.requestSubmit(); return true; }
  }
  if (key === "r") { document.getElementById("reject-comment").focus(); return true; }
  if (key === "f") { const d = document.getElementById("fix-description"); d.focus(); d.select(); return true; }
  if (key === "j" || key === "ArrowRight") { go("next"); return true; }
  if (key === "k" || key === "ArrowLeft") { go("prev"); return true; }
  if (key === "u") { window.location.href = document.querySelector(".itemnav a").href; return true; }
  return false;
}

let row = -1;
function queueKeys(event) {
  if (typing(event.target) || event.ctrlKey || event.metaKey || event.altKey) return false;
  const rows = Array.from(document.querySelectorAll("#queue tbody tr")).filter((r) => r.querySelector("a.open"));
  if (!rows.length) return false;
  if (event.key === "j" || event.key === "k") {
    row = Math.max(0, Math.min(rows.length - 1, row + (event.key === "j" ? 1 : -1)));
    rows.forEach((r, n) => r.classList.toggle("cursor", n === row));
    rows[row].scrollIntoView({ block: "nearest" });
    return true;
  }
  if (event.key === "Enter") { window.location.href = rows[Math.max(row, 0)].querySelector("a.open").href; return true; }
  if (event.key === "/") { document.querySelector("#filters select").focus(); return true; }
  return false;
}

document.addEventListener("DOMContentLoaded", () => {
  const onItem = document.getElementById("decide") !== null;
  document.addEventListener("keydown", (event) => {
    if ((onItem ? itemKeys : queueKeys)(event)) event.preventDefault();
  });
  const type = document.getElementById("fix-type");
  if (type) {
    // the dimension follows the chosen type; a type of another dimension is what changes the dimension
    type.addEventListener("change", () => {
      const m = type.options[type.selectedIndex].text.match(/\(([A-Z]+)\)$/);
      if (m) document.getElementById("fix-dimension").value = m[1];
    });
  }
  const target = document.querySelector(".docsection.target");
  if (target) target.scrollIntoView({ block: "start" });
});
