/* NegHub's own scripts: draw the plotly charts from the JSON beside them (on the pages that load plotly.js),
   make tables sortable (click a header) and filterable (a text box, and a menu per categorical column),
   load a board's every column (its CSV) and a model's answers (JSON) when asked, from files beside the pages.
   Everything read from a CSV or JSON file is shown with textContent: never parsed as HTML. The one HTML read from a file is a
   long board's further rows (data/rows/): the site's own build renders them with the page's own autoescaped
   row template; they are parsed inert (DOMParser runs no script, loads nothing) and only their <tr> nodes move
   into the table. */
(function () {
  "use strict";

  /* On a narrow screen, long category labels (model names on a dot plot or a heatmap) would take the whole
     width and leave the plot a sliver: they are broken into lines (plotly's <br>), after a space, a hyphen or a
     slash where there is one, never shortened (two names cut to one prefix read the same: "Llama-3.1-8B …"
     twice). The figure grows by the rows' extra lines. Labels are HTML-escaped by charts.py: an entity
     (&amp;) is one character here and never broken. */
  function wrapLabel(text, longest) {
    var pieces = text.match(/&[#0-9A-Za-z]+;|[^\s\-\/&]*[\s\-\/]|[^\s\-\/&]+|&/g);
    var lines = [""], size = 0;
    pieces.forEach(function (piece) {
      var length = piece.charAt(0) === "&" ? 1 : piece.length;
      if (size && size + length > longest) { lines.push(""); size = 0; }
      while (length > longest) { /* a word longer than a line: broken where it must be */
        lines[lines.length - 1] += piece.slice(0, longest);
        lines.push("");
        piece = piece.slice(longest);
        length = piece.length;
      }
      lines[lines.length - 1] += piece;
      size += length;
    });
    return lines.map(function (line) { return line.trim(); }).filter(Boolean).join("<br>");
  }

  function fitToWidth(figure, width) {
    var longest = width < 480 ? 16 : width < 760 ? 24 : 0;
    if (!longest) return;
    [["x", "xaxis"], ["y", "yaxis"]].forEach(function (pair) {
      var values = [];
      figure.data.forEach(function (trace) {
        (trace[pair[0]] || []).forEach(function (v) {
          if (typeof v === "string" && values.indexOf(v) === -1) values.push(v);
        });
      });
      if (!values.some(function (v) { return v.length > longest; })) return;
      var axis = figure.layout[pair[1]] = figure.layout[pair[1]] || {};
      var text = values.map(function (v) { return wrapLabel(v, longest); });
      axis.tickmode = "array";
      axis.tickvals = values;
      axis.ticktext = text;
      axis.automargin = true;
      if (pair[0] === "y") {
        var lines = Math.max.apply(null, text.map(function (t) { return t.split("<br>").length; }));
        var needed = 140 + values.length * (14 * lines + 8);
        if (!figure.layout.height || figure.layout.height < needed) figure.layout.height = needed;
      }
    });
  }

  /* The legend sits at the bottom of the figure, under the x axis, in the bottom margin (charts.py keeps 110 px
     for one row of entries and the axis's labels). On a narrow screen its entries stack into more rows; plotly
     then pushes the plot up only as far as the legend's top, and the axis's labels would sit under the
     legend: the margin and the figure grow by the legend's extra rows. */
  function clearLegend(el) {
    var legend = el.querySelector(".legend"), layout = el.layout;
    if (!legend || !layout.margin) return;
    var needed = Math.ceil(legend.getBoundingClientRect().height) + 90;
    if (needed <= layout.margin.b) return;
    Plotly.relayout(el, { "margin.b": needed, height: layout.height + needed - layout.margin.b });
  }

  function drawCharts() {
    document.querySelectorAll(".neghub-chart[data-figure]").forEach(function (el) {
      /* a chart in a folded board or chart box is drawn when it is opened: at its width, and not before */
      if (el.dataset.drawn || el.closest("details:not([open])")) return;
      var source = document.getElementById(el.dataset.figure);
      if (!source || typeof Plotly === "undefined") return;
      var figure = JSON.parse(source.textContent);
      fitToWidth(figure, el.clientWidth);
      /* a short toolbar (download, zoom, pan, reset): it sits at the top right, clear of the column labels */
      Plotly.newPlot(el, figure.data, figure.layout, {
        responsive: true,
        displaylogo: false,
        modeBarButtonsToRemove: ["select2d", "lasso2d", "zoomIn2d", "zoomOut2d", "autoScale2d"]
      }).then(function () { clearLegend(el); });
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

  /* a long board's rows past the first ones its page carries: loaded once, when asked or before the table is
     sorted or filtered (so that both act on every row) */
  function loadMoreRows(table) {
    if (!table.dataset.more) return Promise.resolve();
    if (table.neghubMore) return table.neghubMore;
    var button = document.querySelector('button.neghub-more-rows[data-table="' + table.id + '"]');
    if (button) button.disabled = true;
    table.neghubMore = fetch(table.dataset.more).then(function (r) {
      if (!r.ok) throw new Error(r.status);
      return r.text();
    }).then(function (text) {
      var doc = new DOMParser().parseFromString(text, "text/html");
      var body = table.tBodies[0];
      doc.querySelectorAll("tbody > tr").forEach(function (tr) { body.appendChild(document.importNode(tr, true)); });
      delete table.dataset.more;
      if (table.neghubControls) fillMenus(table, table.neghubControls);
      if (button) button.parentNode.hidden = true;
    }).catch(function () {
      table.neghubMore = null;
      if (button) { button.disabled = false; button.parentNode.appendChild(el("span", " The rows could not be loaded.")); }
    });
    return table.neghubMore;
  }

  function fillMenus(table, controls) {
    controls.menus.forEach(function (menu) {
      var present = {};
      Array.prototype.forEach.call(menu.select.options, function (o) { present[o.value] = true; });
      var values = {};
      Array.prototype.forEach.call(table.tBodies[0].rows, function (row) {
        if (row.cells[menu.index]) values[row.cells[menu.index].textContent.trim()] = true;
      });
      Object.keys(values).sort().forEach(function (k) {
        if (present[k]) return;
        var option = document.createElement("option");
        option.value = k;
        option.textContent = k; /* textContent: values are shown as text, never parsed as HTML */
        menu.select.appendChild(option);
      });
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
      var sort = function () { loadMoreRows(table).then(function () { sortBy(table, index, th); }); };
      th.addEventListener("click", sort);
      th.addEventListener("keydown", function (e) { if (e.key === "Enter") sort(); });
      if (th.dataset.filter !== "1") return;
      var values = {};
      Array.prototype.forEach.call(table.tBodies[0].rows, function (row) {
        if (row.cells[index]) values[row.cells[index].textContent.trim()] = true;
      });
      /* one value in the page's rows is no choice, unless more rows may bring others */
      if (Object.keys(values).length < 2 && !table.dataset.more) return;
      var label = document.createElement("label");
      label.textContent = th.textContent + " ";
      var select = document.createElement("select");
      var all = document.createElement("option");
      all.value = "";
      all.textContent = "all";
      select.appendChild(all);
      label.appendChild(select);
      bar.appendChild(label);
      controls.menus.push({ index: index, select: select });
    });
    fillMenus(table, controls);
    table.neghubControls = controls;
    var refresh = function () { loadMoreRows(table).then(function () { applyFilters(table, controls); }); };
    search.addEventListener("input", refresh);
    controls.menus.forEach(function (m) {
      m.select.addEventListener("change", refresh);
      /* a long table's menu offers the values of every row: the rest of the rows load as it is opened */
      var more = function () { loadMoreRows(table); };
      m.select.addEventListener("focus", more);
      m.select.addEventListener("pointerdown", more);
    });
    table.parentNode.parentNode.insertBefore(bar, table.parentNode.classList.contains("neghub-table-wrap") ? table.parentNode : table);
  }

  function el(tag, text, className) {
    var node = document.createElement(tag);
    if (text !== undefined && text !== null) node.textContent = String(text);
    if (className) node.className = className;
    return node;
  }

  function showValue(value) {
    return value === "" ? "—" : value;
  }

  /* A CSV as Python's csv module writes it (a board's download): fields split on commas, a quoted field may hold
     commas, newlines and doubled quotes. Lines of fields, the header first. */
  function parseCsv(text) {
    var lines = [], fields = [], field = "", quoted = false, i = 0, c;
    for (; i < text.length; i++) {
      c = text[i];
      if (quoted) {
        if (c === '"' && text[i + 1] === '"') { field += '"'; i++; }
        else if (c === '"') quoted = false;
        else field += c;
      } else if (c === '"') quoted = true;
      else if (c === ",") { fields.push(field); field = ""; }
      else if (c === "\n") { fields.push(field); lines.push(fields); fields = []; field = ""; }
      else if (c !== "\r") field += c;
    }
    if (field !== "" || fields.length) { fields.push(field); lines.push(fields); }
    return lines;
  }

  /* "Show every column": the board's CSV (its header, then a line per row), as a table built from text nodes; a
     text cell the download guards against spreadsheets' formulas (a leading ') is shown as written */
  function allColumns(button) {
    var target = document.getElementById(button.dataset.target);
    if (!target || target.dataset.loaded) return;
    button.disabled = true;
    fetch(button.dataset.source).then(function (r) { return r.text(); }).then(function (text) {
      var lines = parseCsv(text);
      var columns = lines[0];
      var records = lines.slice(1).map(function (values) {
        var rec = {};
        columns.forEach(function (c, i) { rec[c] = values[i]; });
        return rec;
      });
      var wrap = el("div", null, "neghub-table-wrap");
      var table = el("table", null, "neghub-table");
      var head = table.createTHead().insertRow();
      columns.forEach(function (c) { var th = el("th", c.replace(/^metric\./, "")); th.scope = "col"; head.appendChild(th); });
      var body = table.createTBody();
      records.forEach(function (rec) {
        var tr = body.insertRow();
        columns.forEach(function (c) { tr.appendChild(el("td", showValue(rec[c]))); });
      });
      wrap.appendChild(el("p", "Every figure as the download writes it: percent and points ×100 where the page shows them so.", "neghub-small"));
      wrap.appendChild(table);
      target.appendChild(wrap);
      target.dataset.loaded = "1";
      enhance(table);
      button.hidden = true;
    }).catch(function () { button.disabled = false; target.appendChild(el("p", "The columns could not be loaded.")); });
  }

  /* a run's answers are one gzip-compressed JSON file (GitHub Pages serves it as it is, not as an encoding):
     inflated here when it starts with gzip's magic bytes, read as it is otherwise (a server that inflated it) */
  function gunzipJson(buffer) {
    var bytes = new Uint8Array(buffer);
    if (bytes.length > 1 && bytes[0] === 0x1f && bytes[1] === 0x8b) {
      var stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
      return new Response(stream).json();
    }
    return JSON.parse(new TextDecoder("utf-8").decode(bytes));
  }

  /* a model's answers: the run's JSON, filtered by category */
  function answers(box) {
    var out = box.querySelector(".neghub-answers-out");
    var url = box.dataset.base + box.querySelector(".neghub-answers-run").value;
    out.textContent = "Loading…";
    var load = function (address) {
      return fetch(address).then(function (r) {
        if (!r.ok) throw new Error(address);
        return r.arrayBuffer();
      }).then(gunzipJson);
    };
    load(url).then(function (run) {
      // the run's entries name items by their index in the split's shared items file (texts, gold answers)
      return load(box.dataset.base + run.items).then(function (shared) {
        return {
          licence: shared.licence_terms || shared.licence,
          items: run.entries.map(function (entry) {
            var rows = entry[1], answers = entry[2];
            return {
              category: entry[0],
              id: rows.map(function (r) { return shared.ids[r]; }).join(" → "),
              text: shared.texts[rows[0]],
              text_after: rows.length > 1 ? shared.texts[rows[1]] : null,
              answer: answers.join(" → "),
              expected: rows.map(function (r) { return shared.expected[r]; }).join(" → ")
            };
          })
        };
      });
    }).then(function (data) {
      out.textContent = "";
      if (data.licence) out.appendChild(el("p", "The items' texts: " + data.licence, "neghub-small"));
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

  /* a link to a folded board or chart (the page's index, or a link from elsewhere) opens it */
  function openTarget() {
    var target = location.hash && document.getElementById(decodeURIComponent(location.hash.slice(1)));
    for (var node = target; node; node = node.parentElement) {
      if (node.tagName === "DETAILS") node.open = true;
    }
  }

  /* a page opened from the file system (file://) cannot fetch the site's other files (the browser refuses): where
     rows, columns or answers would load, one line says how to serve the site instead (README: nox -s serve) */
  var FILE_NOTE = "Opened from a file: this loads only where the site is served. In the repository, run " +
    "\"python -m http.server -d public\" (or \"nox -s serve\") and open http://127.0.0.1:8000/.";

  function fileNotes() {
    if (location.protocol !== "file:") return;
    document.querySelectorAll("button.neghub-more-rows, button.neghub-all-columns, .neghub-answers-load")
      .forEach(function (b) {
        if (b.dataset.fileNote) return;
        b.dataset.fileNote = "1";
        var words = FILE_NOTE;
        if (b.classList.contains("neghub-more-rows")) words += " Until then, sorting and filtering act on the rows shown.";
        b.parentNode.appendChild(el("span", " " + words, "neghub-file-note"));
      });
  }

  function init() {
    openTarget();
    drawCharts();
    fileNotes();
    /* a code block that scrolls sideways must take the keyboard's focus to be scrolled without a mouse; so
       must a Markdown table the theme wraps, where it is wider than the page (a dataset card's, on a phone) */
    document.querySelectorAll(".md-content pre > code").forEach(function (code) {
      if (!code.hasAttribute("tabindex")) code.tabIndex = 0;
    });
    document.querySelectorAll(".md-typeset__scrollwrap").forEach(function (wrap) {
      if (wrap.scrollWidth > wrap.clientWidth && !wrap.hasAttribute("tabindex")) wrap.tabIndex = 0;
    });
    /* the theme gives each code block's copy button a <nav> landmark with no name: landmarks of one kind need
       names that tell them apart (axe-core: landmark-unique) */
    document.querySelectorAll(".md-code__nav").forEach(function (nav, index) {
      if (!nav.hasAttribute("aria-label")) nav.setAttribute("aria-label", "Code block " + (index + 1));
    });
    document.querySelectorAll("button.neghub-more-rows").forEach(function (b) {
      var table = document.getElementById(b.dataset.table);
      if (!table || b.dataset.bound) return;
      b.dataset.bound = "1";
      b.addEventListener("click", function () { loadMoreRows(table); });
    });
    /* a mini board of the home page is three rows: nothing to filter or sort */
    document.querySelectorAll("table.neghub-table:not(.neghub-mini-table)").forEach(enhance);
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

  window.addEventListener("hashchange", openTarget);
  /* "toggle" does not bubble: caught on its way down */
  document.addEventListener("toggle", function (e) { if (e.target.open) drawCharts(); }, true);

  if (typeof document$ !== "undefined" && document$.subscribe) {
    document$.subscribe(init); /* mkdocs-material's page-load observable (instant navigation) */
  } else if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", init);
  } else {
    init();
  }
})();
