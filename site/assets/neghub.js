/* NegHub's own scripts: draw the plotly charts from the JSON beside them (on the pages that load plotly.js),
   make tables sortable (click a header) and filterable (a text box, and a menu per categorical column),
   load a board's every column and a model's answers when asked (JSON files beside the pages). Everything
   read from a file is shown with textContent: never parsed as HTML. */
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

  function el(tag, text, className) {
    var node = document.createElement(tag);
    if (text !== undefined && text !== null) node.textContent = String(text);
    if (className) node.className = className;
    return node;
  }

  function showValue(value) {
    if (value === null || value === undefined || value === "") return "—";
    if (typeof value === "number") return Math.abs(value) <= 1 && !Number.isInteger(value) ? (100 * value).toFixed(2) : String(value);
    return String(value);
  }

  /* "Show every column": the board's JSON (a list of flat records), as a table built from text nodes */
  function allColumns(button) {
    var target = document.getElementById(button.dataset.target);
    if (!target || target.dataset.loaded) return;
    button.disabled = true;
    fetch(button.dataset.source).then(function (r) { return r.json(); }).then(function (records) {
      var columns = [];
      records.forEach(function (rec) { Object.keys(rec).forEach(function (k) { if (columns.indexOf(k) === -1) columns.push(k); }); });
      var wrap = el("div", null, "neghub-table-wrap");
      var table = el("table", null, "neghub-table");
      var head = table.createTHead().insertRow();
      columns.forEach(function (c) { var th = el("th", c.replace(/^metric\./, "")); th.scope = "col"; head.appendChild(th); });
      var body = table.createTBody();
      records.forEach(function (rec) {
        var tr = body.insertRow();
        columns.forEach(function (c) { tr.appendChild(el("td", showValue(rec[c]))); });
      });
      wrap.appendChild(el("p", "Fractions are shown as percentages; counts and sizes as they are.", "neghub-small"));
      wrap.appendChild(table);
      target.appendChild(wrap);
      target.dataset.loaded = "1";
      enhance(table);
      button.hidden = true;
    }).catch(function () { button.disabled = false; target.appendChild(el("p", "The columns could not be loaded.")); });
  }

  /* a model's answers: the run's JSON, filtered by category */
  function answers(box) {
    var out = box.querySelector(".neghub-answers-out");
    var url = box.dataset.base + box.querySelector(".neghub-answers-run").value;
    out.textContent = "Loading…";
    fetch(url).then(function (r) { return r.json(); }).then(function (data) {
      out.textContent = "";
      var categories = {};
      data.items.forEach(function (item) { categories[item.category] = (categories[item.category] || 0) + 1; });
      var bar = el("div", null, "neghub-filters");
      var label = el("label", "Show ");
      var select = document.createElement("select");
      select.appendChild(new Option("everything (" + data.items.length + ")", ""));
      Object.keys(categories).sort().forEach(function (c) { select.appendChild(new Option(c + " (" + categories[c] + ")", c)); });
      label.appendChild(select);
      bar.appendChild(label);
      var search = document.createElement("input");
      search.type = "search"; search.placeholder = "Filter by text…"; search.setAttribute("aria-label", "Filter answers by text");
      bar.appendChild(search);
      out.appendChild(bar);
      var list = el("div");
      out.appendChild(list);
      var render = function () {
        list.textContent = "";
        var text = search.value.toLowerCase(), shown = 0;
        data.items.forEach(function (item) {
          if (select.value && item.category !== select.value) return;
          if (text && JSON.stringify(item).toLowerCase().indexOf(text) === -1) return;
          if (shown++ >= 500) return;
          var div = el("div", null, "neghub-answer");
          div.appendChild(el("strong", item.category + " · item " + item.id));
          div.appendChild(el("pre", item.text));
          if (item.text_after) div.appendChild(el("pre", "→ " + item.text_after));
          div.appendChild(el("div", "answered: " + item.answer));
          div.appendChild(el("div", "expected: " + item.expected));
          if (item.type) div.appendChild(el("div", "type: " + item.type));
          list.appendChild(div);
        });
        if (shown > 500) list.appendChild(el("p", (shown - 500) + " more: narrow the filter."));
        if (!shown) list.appendChild(el("p", "No answer in this view."));
      };
      select.addEventListener("change", render);
      search.addEventListener("input", render);
      render();
    }).catch(function () { out.textContent = "The answers could not be loaded."; });
  }

  function init() {
    drawCharts();
    document.querySelectorAll("table.neghub-table").forEach(enhance);
    document.querySelectorAll("button.neghub-all-columns").forEach(function (b) {
      if (b.dataset.bound) return;
      b.dataset.bound = "1";
      b.addEventListener("click", function () { allColumns(b); });
    });
    document.querySelectorAll(".neghub-answers").forEach(function (box) {
      var button = box.querySelector(".neghub-answers-load");
      if (!button || button.dataset.bound) return;
      button.dataset.bound = "1";
      button.addEventListener("click", function () { answers(box); });
    });
  }

  if (typeof document$ !== "undefined" && document$.subscribe) {
    document$.subscribe(init); /* mkdocs-material's page-load observable (instant navigation) */
  } else if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", init);
  } else {
    init();
  }
})();
