/* NegHub's own scripts: draw the plotly charts from the JSON beside them, and make tables
   sortable (click a header) and filterable (a text box, and a menu per categorical column).
   No dependency but the plotly.js the site serves itself. */
(function () {
  "use strict";

  function drawCharts() {
    document.querySelectorAll(".neghub-chart[data-figure]").forEach(function (el) {
      if (el.dataset.drawn) return;
      var source = document.getElementById(el.dataset.figure);
      if (!source || typeof Plotly === "undefined") return;
      var figure = JSON.parse(source.textContent);
      Plotly.newPlot(el, figure.data, figure.layout, { responsive: true, displaylogo: false });
      el.dataset.drawn = "1";
    });
  }

  function cellValue(row, index) {
    var cell = row.cells[index];
    if (!cell) return "";
    return cell.hasAttribute("data-value") ? cell.getAttribute("data-value") : cell.textContent.trim();
  }

  function compare(a, b) {
    var empty = (a === "") - (b === "");
    if (empty) return empty; /* empty cells last */
    var x = parseFloat(a), y = parseFloat(b);
    if (!isNaN(x) && !isNaN(y) && String(x) !== "NaN" && /^-?[0-9.eE+-]+$/.test(a) && /^-?[0-9.eE+-]+$/.test(b)) {
      return x - y;
    }
    return a.localeCompare(b);
  }

  function sortBy(table, index, th) {
    var body = table.tBodies[0];
    var descending = th.getAttribute("aria-sort") === "ascending";
    var rows = Array.prototype.slice.call(body.rows);
    rows.sort(function (r1, r2) {
      var a = cellValue(r1, index), b = cellValue(r2, index);
      var order = compare(a, b);
      if (a === "" || b === "") return order;
      return descending ? -order : order;
    });
    rows.forEach(function (r) { body.appendChild(r); });
    table.querySelectorAll("th").forEach(function (h) { h.removeAttribute("aria-sort"); });
    th.setAttribute("aria-sort", descending ? "descending" : "ascending");
  }

  function applyFilters(table, controls) {
    var text = controls.search.value.toLowerCase();
    Array.prototype.forEach.call(table.tBodies[0].rows, function (row) {
      var show = !text || row.textContent.toLowerCase().indexOf(text) !== -1;
      controls.menus.forEach(function (menu) {
        if (show && menu.select.value !== "") show = row.cells[menu.index].textContent.trim() === menu.select.value;
      });
      row.hidden = !show;
    });
  }

  function enhance(table) {
    if (table.dataset.enhanced) return;
    table.dataset.enhanced = "1";
    var headers = table.tHead ? table.tHead.rows[0].cells : [];
    var bar = document.createElement("div");
    bar.className = "neghub-filters";
    var search = document.createElement("input");
    search.type = "search";
    search.placeholder = "Filter rows…";
    search.setAttribute("aria-label", "Filter rows");
    bar.appendChild(search);
    var controls = { search: search, menus: [] };
    Array.prototype.forEach.call(headers, function (th, index) {
      th.tabIndex = 0;
      th.title = "Sort by " + th.textContent;
      th.addEventListener("click", function () { sortBy(table, index, th); });
      th.addEventListener("keydown", function (e) { if (e.key === "Enter") sortBy(table, index, th); });
      if (th.dataset.filter !== "1") return;
      var values = {};
      Array.prototype.forEach.call(table.tBodies[0].rows, function (row) {
        if (row.cells[index]) values[row.cells[index].textContent.trim()] = true;
      });
      var keys = Object.keys(values).sort();
      if (keys.length < 2) return;
      var label = document.createElement("label");
      label.textContent = th.textContent + " ";
      var select = document.createElement("select");
      var all = document.createElement("option");
      all.value = "";
      all.textContent = "all";
      select.appendChild(all);
      keys.forEach(function (k) {
        var option = document.createElement("option");
        option.value = k;
        option.textContent = k; /* textContent: values are shown as text, never parsed as HTML */
        select.appendChild(option);
      });
      label.appendChild(select);
      bar.appendChild(label);
      controls.menus.push({ index: index, select: select });
    });
    var refresh = function () { applyFilters(table, controls); };
    search.addEventListener("input", refresh);
    controls.menus.forEach(function (m) { m.select.addEventListener("change", refresh); });
    table.parentNode.insertBefore(bar, table);
  }

  function init() {
    drawCharts();
    document.querySelectorAll("table.neghub-table").forEach(enhance);
  }

  if (typeof document$ !== "undefined" && document$.subscribe) {
    document$.subscribe(init); /* mkdocs-material's page-load observable (instant navigation) */
  } else if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", init);
  } else {
    init();
  }
})();
