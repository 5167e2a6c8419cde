// handledger: step through one hand. Plain JavaScript, no framework, no network.
// Reads the hand from the JSON data element #hand-data and writes every name and text with
// textContent (never as HTML), so a player named like markup is shown as text.
(function () {
  "use strict";
  document.documentElement.classList.add("js");  // shows the .needs-js parts (hand.css)
  var data = JSON.parse(document.getElementById("hand-data").textContent);
  var SUITS = { s: ["\u2660", "spades"], h: ["\u2665", "hearts"], d: ["\u2666", "diamonds"],
                c: ["\u2663", "clubs"] };
  var RANKS = { A: "ace", K: "king", Q: "queen", J: "jack", T: "10" };
  var version = "corrected";
  var steps = data.versions.corrected.steps;
  var index = 0;

  function $(id) { return document.getElementById(id); }

  function el(tag, cls, text) {
    var node = document.createElement(tag);
    if (cls) { node.className = cls; }
    if (text !== undefined && text !== null) { node.textContent = String(text); }
    return node;
  }

  function money(chips) {
    var m = data.money;
    var minor = chips * m.minor_per_chip;
    var sign = minor < 0 ? "-" : "";
    var abs = Math.abs(minor);
    var text = String(abs);
    if (m.decimals > 0) {
      var scale = Math.pow(10, m.decimals);
      text = Math.floor(abs / scale) + "." + String(abs % scale).padStart(m.decimals, "0");
    }
    return sign + text + " " + m.currency;
  }

  function chips(n) {
    return data.money && n ? n + " (" + money(n) + ")" : String(n);
  }

  function chipsNode(tag, cls, n) {  // the chips, and the money on a line of its own
    var node = el(tag, cls);
    node.appendChild(el("span", "chips", n));
    if (data.money && n) {
      node.appendChild(document.createTextNode(" "));
      node.appendChild(el("span", "money", "(" + money(n) + ")"));
    }
    return node;
  }

  var PHASES = { forced: "blinds and antes", deal: "dealing", draw: "the draw",
                 declare: "declaring", bet: "betting", showdown: "showdown" };

  function cardLabel(card, up) {
    var suit = SUITS[card.charAt(1)];
    if (card.length !== 2 || !suit) { return "unknown card"; }
    var rank = RANKS[card.charAt(0)] || card.charAt(0);
    return rank + " of " + suit[1] + (up === false ? " (face down)" : "");
  }

  function cardNode(card, up) {
    var suit = SUITS[card.charAt(1)];
    var node = el("span", "card");
    node.setAttribute("role", "img");
    node.setAttribute("aria-label", cardLabel(card, up));
    node.title = node.getAttribute("aria-label");
    if (card.length !== 2 || !suit) {
      node.className += " back";
      node.appendChild(el("span", "rank", "?"));
      return node;
    }
    node.className += " suit-" + card.charAt(1) + (up === false ? " down" : "");
    var rank = card.charAt(0) === "T" ? "10" : card.charAt(0);
    node.appendChild(el("span", "rank", rank));
    var symbol = el("span", "suit", suit[0]);
    symbol.setAttribute("aria-hidden", "true");
    node.appendChild(symbol);
    return node;
  }

  // the player named to act; none while the cards shown leave more than one who may open
  function actsNow(step, player) {
    return !step.to_act_unsure && step.to_act === player;
  }

  function legalText(step) {
    if (step.status !== "open") { return "The hand is " + step.status + "."; }
    var l = step.legal;
    if (!step.to_act && step.dealer_next) {  // a draw: the replacements, as `state` says
      return "The dealer deals " + step.dealer_next + " (" + step.phase + ").";
    }
    if (!step.to_act) { return "Nobody to act (" + step.phase + ")."; }
    if (!l) { return step.to_act + " to act (" + step.phase + ")."; }
    // an upcard unknown (stud): who may open, as `state` says it
    var text = (step.to_act_unsure || l.player + " to act") + ": ";
    if (l.bring_in) {
      text += "bring in " + chips(l.bring_in);
    } else if (l.to_call) {
      text += "to call " + chips(l.to_call) + " (or fold)";
    } else {
      text += "check";
    }
    if (l.min_to !== null && l.fixed && l.max_to !== l.min_to) {
      // fixed limit: the open pair's small or big bet, nothing between (RULES.md §4.1)
      text += ", " + l.verb + " " + chips(l.min_to) + " or " + chips(l.max_to);
    } else if (l.min_to !== null) {
      text += ", " + (l.bring_in ? "or complete" : l.verb) + " to " + chips(l.min_to) +
        (l.max_to !== l.min_to ? " up to " + chips(l.max_to) : "");
    } else if (l.reason) {
      text += " (no " + l.verb + ": " + l.reason + ")";
    }
    return text + ".";
  }

  function statusWords(seat, step) {
    var words = [];
    if (seat.folded) { words.push("folded"); }
    if (seat.mucked) { words.push("mucked"); }
    if (seat.all_in) { words.push("all-in"); }
    if (seat.declared) { words.push("declared " + seat.declared); }
    if (actsNow(step, seat.player)) { words.push("to act"); }
    return words;
  }

  function winnings(step) {  // chips each player takes from the pots awarded so far
    var won = {};
    step.pots.forEach(function (pot) {
      Object.keys(pot.awards).forEach(function (p) { won[p] = (won[p] || 0) + pot.awards[p]; });
    });
    return won;
  }

  // What a seat takes: the rules' award ("wins 300") and an uncalled bet returned; once the
  // table's payouts are recorded and it paid him other than the rules give, both, labelled as
  // the payouts table labels them (the stack is what the table paid)
  function wonText(step, player, won, back) {
    var rules = won[player] || 0;
    var paid = step.paid || {};
    if (Object.keys(paid).length && (paid[player] || 0) !== rules + back) {
      return "table paid " + (paid[player] || 0) + " · rules give " + rules +
        (back ? ", " + back + " returned" : "");
    }
    return (rules ? "wins " + rules : "") + (back ? (rules ? ", " : "") + back + " returned" : "");
  }

  function renderSeats(step) {
    var won = winnings(step);
    step.seats.forEach(function (seat, i) {
      var box = $("seat-" + i);
      if (!box) { return; }
      var cards = box.querySelector(".seat-cards");
      cards.replaceChildren();
      seat.cards.forEach(function (c, k) { cards.appendChild(cardNode(c, seat.up[k])); });
      box.querySelector(".seat-stack").textContent = "stack " + seat.stack;
      box.querySelector(".seat-bet").textContent = seat.bet ? " · bet " + seat.bet : "";
      var back = step.returned[seat.player] || 0;
      box.querySelector(".seat-won").textContent = wonText(step, seat.player, won, back);
      var words = statusWords(seat, step);
      var status = box.querySelector(".seat-status");
      status.replaceChildren();
      words.forEach(function (w) { status.appendChild(el("span", "badge badge-" + w.split(" ")[0], w)); });
      box.classList.toggle("folded", seat.folded || seat.mucked);
      box.classList.toggle("to-act", actsNow(step, seat.player));
      box.classList.toggle("all-in", seat.all_in);
    });
  }

  function renderBoards(step) {
    var boards = $("boards");
    boards.replaceChildren();
    step.boards.forEach(function (board, r) {
      var row = el("div", "board");
      if (step.boards.length > 1) { row.appendChild(el("span", "run", "run " + (r + 1))); }
      board.forEach(function (c) { row.appendChild(cardNode(c, true)); });
      if (!board.length && data.board_cards) {
        row.appendChild(el("span", "empty", "no board cards yet"));
      }
      boards.appendChild(row);
    });
    // the street whose cards are out; its first word capitalized ("Blinds and antes")
    var street = step.street_name || PHASES[step.phase] || step.phase;
    $("street").textContent = street.charAt(0).toUpperCase() + street.slice(1);
    $("pot-total").textContent = chips(step.pot_total);
  }

  function renderPots(step) {
    var body = document.querySelector("#pots tbody");
    body.replaceChildren();
    var paidOut = Object.keys(step.paid || {}).length > 0;  // paid chips are in the stacks
    // no payout recorded: the rules' award is in the stacks, said as the rules' (not paid)
    var byRules = Object.keys(step.awarded || {}).length > 0;
    step.pots.forEach(function (pot) {
      var tr = el("tr");
      tr.setAttribute("data-pot", pot.index);
      var name = el("th", "pot-name", pot.name);
      name.setAttribute("scope", "row");
      tr.appendChild(name);
      var left = paidOut || byRules ? pot.left : pot.amount;  // what is still in the middle
      var amount = chipsNode("td", "pot-amount", left);
      if (left !== pot.amount) {
        amount.appendChild(document.createTextNode(" of " + chips(pot.amount) + (byRules
          ? ", the rest as the rules award it (no payout recorded)" : ", the rest paid out")));
      }
      tr.appendChild(amount);
      tr.appendChild(el("td", "pot-eligible", pot.eligible.join(", ")));
      body.appendChild(tr);
    });
    if (!step.pots.length) {
      var none = el("tr");
      var cell = el("td", "empty", "no chips in the pot");
      cell.colSpan = 3;
      none.appendChild(cell);
      body.appendChild(none);
    }
    var ret = Object.keys(step.returned).map(function (p) {
      return p + " " + chips(step.returned[p]);
    });
    $("returned").textContent = ret.length ? ret.join(", ") : "none";
  }

  function renderPlayers(step) {
    var body = document.querySelector("#players tbody");
    body.replaceChildren();
    step.seats.forEach(function (seat) {
      var tr = el("tr");
      if (actsNow(step, seat.player)) { tr.className = "to-act"; }
      var name = el("th", "name", seat.player);
      name.setAttribute("scope", "row");
      tr.appendChild(name);
      tr.appendChild(chipsNode("td", "", seat.stack));
      tr.appendChild(chipsNode("td", "", seat.bet));
      tr.appendChild(chipsNode("td", "", seat.put_in));
      var words = statusWords(seat, step);
      tr.appendChild(el("td", "", words.length ? words.join(", ") : "in"));
      body.appendChild(tr);
    });
  }

  function buildLog() {
    var list = $("events");
    list.replaceChildren();
    steps.forEach(function (step, i) {
      var li = el("li");
      var button = el("button", "event", step.label + "  " + step.action + " — " + step.words);
      button.type = "button";
      button.tabIndex = -1;
      button.addEventListener("click", function () { go(i); });
      li.appendChild(button);
      list.appendChild(li);
    });
  }

  function render() {
    var step = steps[index];
    renderSeats(step);
    renderBoards(step);
    renderPots(step);
    renderPlayers(step);
    var number = String(index + 1);  // the step as the slider counts it; its seq beside it
    $("now-seq").textContent = step.label === number ? number
      : number + " (seq " + step.label + ")";
    $("step-words").textContent = step.words;
    $("turn").textContent = legalText(step);
    var label = "Step " + (index + 1) + " of " + steps.length;
    $("step-label").textContent = label;
    var slider = $("slider");
    slider.max = String(steps.length);
    slider.value = String(index + 1);
    slider.setAttribute("aria-valuetext", label + ": " + step.words);
    $("first").disabled = $("prev").disabled = index === 0;
    $("next").disabled = $("last").disabled = index === steps.length - 1;
    var items = $("events").children;
    for (var i = 0; i < items.length; i++) {
      var current = i === index;
      items[i].classList.toggle("current", current);
      if (current) { items[i].setAttribute("aria-current", "step"); }
      else { items[i].removeAttribute("aria-current"); }
    }
    document.body.setAttribute("data-step", String(index + 1));
    return step;
  }

  function announce(text) { $("announce").textContent = text; }

  function go(i) {
    index = Math.max(0, Math.min(steps.length - 1, i));
    var step = render();
    var pots = step.pots.map(function (p) {
      return p.name + " " + chips(p.amount) + " (" + p.eligible.join(", ") + ")";
    }).join("; ");
    announce("Step " + (index + 1) + " of " + steps.length + ": " + step.words + ". " +
             (pots || "No pot") + ". " + legalText(step));
    var item = $("events").children[index];
    if (item && item.scrollIntoView && !window.matchMedia("print").matches) {
      item.scrollIntoView({ block: "nearest" });
    }
  }

  function setVersion(kind) {
    if (!data.versions[kind]) { return; }
    version = kind;
    steps = data.versions[kind].steps;
    document.querySelectorAll("button.version").forEach(function (b) {
      b.setAttribute("aria-pressed", String(b.getAttribute("data-version") === kind));
    });
    document.querySelectorAll(".version-end").forEach(function (d) {
      d.hidden = d.getAttribute("data-version") !== kind;
    });
    document.body.setAttribute("data-version", kind);
    buildLog();
    go(Math.min(index, steps.length - 1));
    announce((kind === "original" ? "Showing the original version, as first recorded. "
              : "Showing the corrected version. ") + $("announce").textContent);
  }

  $("first").addEventListener("click", function () { go(0); });
  $("prev").addEventListener("click", function () { go(index - 1); });
  $("next").addEventListener("click", function () { go(index + 1); });
  $("last").addEventListener("click", function () { go(steps.length - 1); });
  $("slider").addEventListener("input", function (e) { go(Number(e.target.value) - 1); });
  document.querySelectorAll("button.version").forEach(function (b) {
    b.addEventListener("click", function () { setVersion(b.getAttribute("data-version")); });
  });
  document.addEventListener("keydown", function (e) {
    if (e.altKey || e.ctrlKey || e.metaKey) { return; }
    var t = e.target;
    if (t && (t.id === "slider" || t.isContentEditable ||
              /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName))) { return; }
    var moves = { ArrowRight: index + 1, ArrowLeft: index - 1, Home: 0, End: steps.length - 1 };
    if (Object.prototype.hasOwnProperty.call(moves, e.key)) {
      e.preventDefault();
      go(moves[e.key]);
    }
  });
  var beforePrint = null;
  window.addEventListener("beforeprint", function () {  // print the final state
    beforePrint = index;
    index = steps.length - 1;
    render();
  });
  window.addEventListener("afterprint", function () {
    if (beforePrint !== null) { index = beforePrint; beforePrint = null; render(); }
  });

  document.body.setAttribute("data-version", version);
  document.body.classList.add("js");
  buildLog();
  render();
  document.body.setAttribute("data-ready", "1");
})();
