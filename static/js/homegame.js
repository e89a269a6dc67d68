/* homegame: small progressive enhancements. Every page works without this file.
 *
 * 1. Forms with a variant select show only that variant's fields ([data-variants]).
 * 2. Card inputs ([data-card]) get a tap-to-pick panel that greys out cards
 *    already entered elsewhere in the same form, so no card can be picked twice; in the
 *    live logger also every card already seen in the hand ([data-seen-up]/[data-seen-down]
 *    around the form: face up on the table, or entered face down), each with its reason.
 *    The results form's seats: "folded on 3rd street" fills the ante and hides the cards;
 *    showdown chips follow the first typed.
 * 3. The hand replayer ([data-replayer]) steps between streets and actions without reloading.
 * 4. Imports still running ([data-import-poll]) show their progress.
 * 5. Selects marked [data-autosubmit] submit their form when changed.
 * 6. Tables wider than their box show a "scroll →" hint (see the end of the file).
 * No page has inline script: the Content-Security-Policy allows scripts from this site only.
 */
(function () {
  "use strict";

  var RANKS = ["A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2"];
  var SUITS = [["s", "♠"], ["h", "♥"], ["d", "♦"], ["c", "♣"]];
  var SUIT_OF = { c: "c", d: "d", h: "h", s: "s", "♣": "c", "♦": "d", "♥": "h", "♠": "s",
                  "♧": "c", "♢": "d", "♡": "h", "♤": "s" };
  var SYMBOL = { c: "♣", d: "♦", h: "♥", s: "♠" };

  /* "Kd", "k♦", "10c", "tc" -> "Kd"/"Tc"; anything else -> null. */
  function parseCard(text) {
    var t = (text || "").replace(/\ufe0f/g, "").trim();
    if (!t) return null;
    var suit = SUIT_OF[t.slice(-1).toLowerCase()] || SUIT_OF[t.slice(-1)];
    var rank = t.slice(0, -1).toUpperCase();
    if (rank === "10") rank = "T";
    if (!suit || !/^[2-9TJQKA]$/.test(rank)) return null;
    return rank + suit;
  }
  function display(code) {
    var rank = code[0] === "T" ? "10" : code[0];
    return rank + SYMBOL[code[1]];
  }

  /* --- 1. variant-dependent fields -------------------------------------------- */
  function setupVariants(form) {
    var select = form.querySelector("select[name='variant']");
    if (!select) return;
    function apply() {
      var v = select.value;
      form.querySelectorAll("[data-variants]").forEach(function (el) {
        var wanted = el.getAttribute("data-variants").split(" ");
        el.hidden = wanted.indexOf(v) === -1;
      });
    }
    select.addEventListener("change", apply);
    apply();
  }

  /* --- 2. the card picker -------------------------------------------------------- */
  var picker = null, current = null, currentForm = null;

  function inputsOf(form) {
    return Array.prototype.slice.call(form.querySelectorAll("input[data-card]"));
  }
  function visibleInputs(form) {
    return inputsOf(form).filter(function (el) { return el.offsetParent !== null; });
  }
  function used(form, except) {
    var out = {};
    inputsOf(form).forEach(function (el) {
      if (el === except) return;
      var c = parseCard(el.value);
      if (c) out[c] = true;
    });
    return out;
  }
  /* The cards the page says were already seen in the hand, with the reason in words. */
  var SEEN = [["data-seen-up", "face up on the table"], ["data-seen-down", "already entered in this hand"]];
  function seenOf(form) {
    var out = {};
    var box = form.closest("[data-seen-up], [data-seen-down]");
    if (!box) return out;
    SEEN.forEach(function (pair) {
      (box.getAttribute(pair[0]) || "").split(/\s+/).forEach(function (code) {
        if (code) out[code] = pair[1];
      });
    });
    return out;
  }
  function paint(input) {
    var c = parseCard(input.value);
    input.classList.toggle("red", !!c && (c[1] === "h" || c[1] === "d"));
    input.classList.toggle("filled", !!c);
  }

  function buildPicker() {
    picker = document.createElement("div");
    picker.className = "picker";
    picker.hidden = true;
    picker.setAttribute("role", "dialog");
    picker.setAttribute("aria-label", "Pick a card");
    var html = '<div class="picker-inner"><div class="picker-head">' +
      '<span class="picker-title"></span>' +
      '<button type="button" data-act="clear">Clear</button>' +
      '<button type="button" data-act="keyboard">Type</button>' +
      '<button type="button" data-act="done" class="done">Done</button></div>' +
      '<div class="picker-grid">';
    SUITS.forEach(function (s) {
      html += '<div class="picker-suit">';
      RANKS.forEach(function (r) {
        var code = (r === "10" ? "T" : r) + s[0];
        var red = s[0] === "h" || s[0] === "d";
        html += '<button type="button" data-code="' + code + '" class="' + (red ? "red" : "") +
          '" data-name="' + r + s[1] + '" aria-label="' + r + s[1] + '">' + r +
          '<span class="s" aria-hidden="true">' + s[1] + "</span></button>";
      });
      html += "</div>";
    });
    html += "</div></div>";
    picker.innerHTML = html;
    document.body.appendChild(picker);
    // Keep focus in the input while tapping the panel.
    picker.addEventListener("mousedown", function (e) { e.preventDefault(); });
    picker.addEventListener("click", function (e) {
      var b = e.target.closest("button");
      if (!b || !current) return;
      var act = b.getAttribute("data-act");
      if (act === "done") { closePicker(); return; }
      if (act === "clear") { setValue(current, ""); refresh(); return; }
      if (act === "keyboard") {
        var input = current;
        closePicker();
        input.setAttribute("inputmode", "text");
        input.dataset.typing = "1";
        input.blur(); input.focus();
        return;
      }
      var code = b.getAttribute("data-code");
      if (code && !b.disabled) {
        setValue(current, display(code));
        advance();
      }
    });
  }
  function setValue(input, value) {
    input.value = value;
    paint(input);
    input.dispatchEvent(new Event("input", { bubbles: true }));
  }
  function refresh() {
    if (!current) return;
    var taken = used(currentForm, current);
    var seen = seenOf(currentForm);
    var mine = parseCard(current.value);
    picker.querySelectorAll("button[data-code]").forEach(function (b) {
      var code = b.getAttribute("data-code");
      var why = seen[code] || (taken[code] ? "picked for another card here" : "");
      b.disabled = !!why;
      // The reason is read out with the card, and shown on hover.
      b.setAttribute("aria-label", b.getAttribute("data-name") + (why ? ": " + why : ""));
      if (why) b.title = why; else b.removeAttribute("title");
      b.classList.toggle("seen", !!seen[code]);
      b.classList.toggle("chosen", code === mine);
    });
    var label = current.getAttribute("aria-label") || "card";
    var seat = current.closest("fieldset");
    var who = seat ? (seat.querySelector("legend .seat-name") || seat.querySelector("legend")) : null;
    var name = who ? who.textContent.trim() : "";
    // The live logger's labels name the player already ("Bob: face-up card").
    var prefix = name && label.indexOf(name + ":") !== 0 ? name + " · " : "";
    picker.querySelector(".picker-title").textContent =
      prefix + label + (/card$/.test(label) ? "" : " card");
  }
  function openPicker(input) {
    if (!picker) buildPicker();
    current = input;
    currentForm = input.form;
    picker.hidden = false;
    document.body.classList.add("picker-open");
    // Room under the page for the panel, so the last inputs can scroll above it.
    document.body.style.paddingBottom = picker.offsetHeight + "px";
    refresh();
    var rect = input.getBoundingClientRect();
    var limit = window.innerHeight - picker.offsetHeight - 8;
    if (rect.bottom > limit) window.scrollBy(0, rect.bottom - limit + 8);
  }
  function unroom() {
    if (current) return;  // opened again meanwhile
    document.body.classList.remove("picker-open");
    document.body.style.paddingBottom = "";
  }
  /* keepRoom: the picker closes because a tap began elsewhere on the page. The room under
   * the page stays until that tap is over, so nothing moves under the finger and the tap
   * lands where it began (a tap on "Record hand" sends the form at once). */
  function closePicker(keepRoom) {
    if (picker) picker.hidden = true;
    if (current) current.blur();
    current = null;
    if (!keepRoom) { unroom(); return; }
    var done = function () {
      document.removeEventListener("mouseup", done, true);
      setTimeout(unroom, 0);  // after the click that follows the mouseup
    };
    document.addEventListener("mouseup", done, true);
  }
  function advance() {
    var list = visibleInputs(currentForm);
    if (currentForm.hasAttribute("data-live")) {
      // The live logger: on to the next card still wanted; the street goes in once all are.
      var wanted = list.filter(function (el) { return el.required && !parseCard(el.value); });
      if (wanted.length) { wanted[0].focus(); return; }
      var form = currentForm;
      closePicker();
      // Choices still open (buys, a seventh card up): the Deal button sends the street.
      if (form.hasAttribute("data-hold")) return;
      if (form.requestSubmit) form.requestSubmit(); else form.submit();
      return;
    }
    var i = list.indexOf(current);
    var fieldset = current.closest("fieldset");
    var next = list[i + 1];
    if (next && next.closest("fieldset") === fieldset) {
      next.focus();
    } else {
      refresh();
    }
  }

  var documentListening = false;  // the picker's document listeners, added once
  function setupCards(form) {
    inputsOf(form).forEach(function (input) {
      paint(input);
      input.setAttribute("inputmode", "none");
      input.addEventListener("focus", function () {
        if (input.dataset.typing) return;
        openPicker(input);
      });
      input.addEventListener("input", function () { paint(input); if (current) refresh(); });
      input.addEventListener("blur", function () {
        var c = parseCard(input.value);
        if (c) input.value = display(c);
        paint(input);
        delete input.dataset.typing;
        input.setAttribute("inputmode", "none");
      });
    });
    if (documentListening) return;
    documentListening = true;
    document.addEventListener("mousedown", function (e) {
      if (!picker || picker.hidden) return;
      if (picker.contains(e.target) || (e.target.matches && e.target.matches("input[data-card]"))) return;
      closePicker(true);
    });
    document.addEventListener("keydown", function (e) {
      if (e.key === "Escape") closePicker();
    });
  }

  /* --- 2b. the results form's seats ------------------------------------------------
   * "Folded on 3rd street" fills the seat's chips with its ante and hides its cards (the
   * CSS hides them too, without this file; the server fills blank chips the same way).
   * Chips typed for a player in to the showdown fill the blank chips of the others in to
   * the showdown (they match unless someone is all in: type over it then). */
  function setupSeats(form) {
    var seats = Array.prototype.slice.call(form.querySelectorAll("fieldset.seat-form"));
    if (!seats.length) return;
    function chipsOf(seat) { return seat.querySelector("input[name$='-put_in']"); }
    function fold3Of(seat) { return seat.querySelector("input[name$='-fold3']"); }
    function foldedOf(seat) { return seat.querySelector("select[name$='-folded']"); }
    function atShowdown(seat) {
      var box = fold3Of(seat), sel = foldedOf(seat);
      return !(box && box.checked) && !(sel && sel.value);
    }
    function autoFill(input, value) {
      input.value = value;
      input.dataset.auto = "1";
    }
    function fillShowdown(from) {
      var value = chipsOf(from).value;
      // Only from the first typed: another showdown seat typed by hand leads.
      var led = seats.some(function (seat) {
        var chips = chipsOf(seat);
        return seat !== from && atShowdown(seat) && chips && chips.value && !chips.dataset.auto;
      });
      if (led) return;
      seats.forEach(function (seat) {
        if (seat === from || !atShowdown(seat)) return;
        var chips = chipsOf(seat);
        if (chips && (!chips.value || chips.dataset.auto)) autoFill(chips, value);
      });
    }
    seats.forEach(function (seat) {
      var chips = chipsOf(seat), box = fold3Of(seat), sel = foldedOf(seat);
      if (!chips) return;
      chips.addEventListener("input", function () {
        delete chips.dataset.auto;
        if (atShowdown(seat)) fillShowdown(seat);
      });
      if (sel) sel.addEventListener("change", function () {
        if (sel.value && chips.dataset.auto) { chips.value = ""; delete chips.dataset.auto; }
      });
      if (!box) return;
      function apply() {
        seat.classList.toggle("is-fold3", box.checked);
        if (box.checked) {
          if (!chips.value || chips.dataset.auto) autoFill(chips, box.getAttribute("data-ante"));
        } else if (chips.dataset.auto) {
          chips.value = "";
          delete chips.dataset.auto;
        }
      }
      box.addEventListener("change", apply);
      seat.classList.toggle("is-fold3", box.checked);
    });
  }

  /* The list of errors at the top of a form: a link takes the focus to its input. */
  function setupSummary(box) {
    box.addEventListener("click", function (e) {
      var a = e.target.closest("a[data-target]");
      if (!a) return;
      var target = document.getElementById(a.getAttribute("data-target"));
      if (!target) return;
      e.preventDefault();
      target.scrollIntoView({ block: "center" });
      target.focus();
    });
  }

  /* --- 3. the replayer ------------------------------------------------------------ */
  function setupReplayer(root) {
    var panels = Array.prototype.slice.call(root.querySelectorAll("section.street[data-street]"));
    if (!panels.length) return;
    var links = root.querySelectorAll(".street-link[data-go]");
    function show(number, push) {
      var found = false;
      panels.forEach(function (p) {
        var on = p.getAttribute("data-street") === String(number);
        p.hidden = !on;
        if (on) found = true;
      });
      if (!found) return false;
      links.forEach(function (a) {
        var on = a.getAttribute("data-go") === String(number);
        a.classList.toggle("current", on);
        if (on) a.setAttribute("aria-current", "step"); else a.removeAttribute("aria-current");
      });
      if (push && window.history && history.replaceState) {
        var url = new URL(window.location.href);
        var key = String(number);
        if (key.indexOf("step-") === 0) {
          url.searchParams.set("step", key.slice(5));
          url.searchParams.delete("street");
        } else {
          url.searchParams.set("street", key);
          url.searchParams.delete("step");
        }
        url.hash = "replay";
        history.replaceState(null, "", url.toString());
      }
      return true;
    }
    root.addEventListener("click", function (e) {
      var a = e.target.closest("a[data-go]");
      if (!a) return;
      if (show(a.getAttribute("data-go"), true)) e.preventDefault();
    });
    document.addEventListener("keydown", function (e) {
      if (e.target.closest && e.target.closest("input, select, textarea")) return;
      var visible = panels.filter(function (p) { return !p.hidden; })[0];
      if (!visible) return;
      var sel = e.key === "ArrowRight" ? 'a[rel="next"]' : e.key === "ArrowLeft" ? 'a[rel="prev"]' : null;
      if (!sel) return;
      var a = visible.querySelector(sel);
      if (a) { show(a.getAttribute("data-go"), true); e.preventDefault(); }
    });
  }

  /* --- 4. imports still running: poll the API, reload the page when one finishes ---- */
  function setupImportPoll(item) {
    if (!window.fetch) return;
    function poll() {
      fetch(item.getAttribute("data-import-poll"), {credentials: "same-origin", headers: {"Accept": "application/json"}})
        .then(function (r) { return r.ok ? r.json() : null; })
        .then(function (job) {
          if (!job) return;
          if (job.status === "done" || job.status === "failed") { window.location.reload(); return; }
          var bar = item.querySelector("[data-import-progress]");
          if (bar) { bar.max = job.total; bar.value = job.done; }
          item.querySelector("[data-import-summary]").textContent = job.done + " / " + job.total + " hands";
          item.querySelector("[data-import-status]").textContent = job.status;
          window.setTimeout(poll, 2000);
        })
        .catch(function () { window.setTimeout(poll, 5000); });
    }
    window.setTimeout(poll, 1000);
  }

  /* --- 5. selects that submit their form when changed ([data-autosubmit]) ---------- */
  function setupAutosubmit(select) {
    select.addEventListener("change", function () { if (select.form) select.form.submit(); });
  }

  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("[data-import-poll]").forEach(setupImportPoll);
    document.querySelectorAll("select[data-autosubmit]").forEach(setupAutosubmit);
    document.querySelectorAll("form").forEach(setupVariants);
    document.querySelectorAll("form[data-card-form]").forEach(setupCards);
    document.querySelectorAll("form[data-card-form]").forEach(setupSeats);
    document.querySelectorAll(".error-summary").forEach(setupSummary);
    document.querySelectorAll("[data-replayer]").forEach(setupReplayer);
    focusFirstCard(document);
  });
  // The live logger asks for the first card it needs at once.
  function focusFirstCard(root) {
    var live = root.querySelector("form[data-live]");
    if (live && !live.hasAttribute("data-hold")) {
      var first = visibleInputs(live).filter(function (el) { return el.required && !el.value; })[0];
      if (first) first.focus();
    }
  }
  // The live logger's outbox (static/js/logger.js) drew the next step in place: its forms
  // get their card picker as a loaded page's do.
  document.addEventListener("homegame:rendered", function (e) {
    var root = e.target;
    root.querySelectorAll("form[data-card-form]").forEach(setupCards);
    focusFirstCard(root);
  });
})();

/* 6. Tables wider than their box (.table-wrap, a focusable region) get a visible
 *    "scroll →" hint above them while they overflow; it follows resizes and rotation. */
(function () {
  "use strict";

  function markOverflow(wrap) {
    var hint = wrap.previousElementSibling;
    if (!hint || !hint.classList.contains("scroll-hint")) {
      hint = document.createElement("p");
      hint.className = "scroll-hint";
      hint.setAttribute("aria-hidden", "true");  // the region's label already says it is a table
      hint.textContent = "scroll →";
      wrap.parentNode.insertBefore(hint, wrap);
    }
    wrap.classList.add("hinted");  // site.css then draws no hint of its own (the one without JS)
    var overflows = wrap.scrollWidth > wrap.clientWidth + 1;
    hint.hidden = !overflows;
    wrap.classList.toggle("is-scrollable", overflows);
  }

  function markAll() {
    document.querySelectorAll(".table-wrap").forEach(markOverflow);
  }

  document.addEventListener("DOMContentLoaded", function () {
    markAll();
    var pending = null;
    window.addEventListener("resize", function () {
      window.clearTimeout(pending);
      pending = window.setTimeout(markAll, 100);
    });
  });
})();
