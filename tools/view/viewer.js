/* botarena's replay viewer: timeline, seat panels, chart. games/<name>.js draw the boards.
   Bot text (answers, stderr, input) only ever reaches the page as textContent: never as HTML. */
"use strict";
var BotArena = (function () {
  var SVG_NS = "http://www.w3.org/2000/svg";
  var COLORS = ["#d7263d", "#1b66c9", "#2a9d3f", "#8e44ad"];
  var SPEEDS = [["0.25x", 2000], ["0.5x", 1000], ["1x", 500], ["2x", 250], ["4x", 125], ["8x", 60]];
  var drawers = {};

  function set(node, attrs) {
    for (var key in attrs) if (attrs[key] !== undefined && attrs[key] !== null) node.setAttribute(key, attrs[key]);
    return node;
  }
  function el(parent, tag, attrs, text) {
    var node = set(document.createElement(tag), attrs || {});
    if (text !== undefined) node.textContent = text;
    if (parent) parent.appendChild(node);
    return node;
  }
  function svg(parent, tag, attrs, text) {
    var node = set(document.createElementNS(SVG_NS, tag), attrs || {});
    if (text !== undefined) node.textContent = text;
    if (parent) parent.appendChild(node);
    return node;
  }
  function ms(value) { return value === null || value === undefined ? "-" : Number(value).toFixed(1) + " ms"; }

  function resultText(game) {
    var result = game.result || {}, players = result.players || [];
    var scores = players.map(function (p, seat) { return "seat " + seat + " " + p.score; }).join(", ");
    var head = players.length === 1 ? "score " + (players[0] || {}).score
      : result.winner === null || result.winner === undefined ? "draw"
      : "seat " + result.winner + " (" + (players[result.winner] || {}).bot + ") wins";
    return head + " \u00b7 " + scores + " \u00b7 " + result.reason + " \u00b7 " + result.turns + " turns";
  }

  /* One game's column: title, board, seat panels, chart. */
  function GameView(root, game, index) {
    this.game = game;
    var column = el(root, "section", {"class": "game", id: "game-" + index});
    var title = el(column, "h2", {});
    el(title, "span", {"class": "source"}, game.source + "  ");
    el(title, "span", {"class": "meta"}, game.game + " \u00b7 seed " + game.seed +
       (Object.keys(game.options).length ? " \u00b7 " + JSON.stringify(game.options) : ""));
    el(column, "div", {"class": "result"}, resultText(game));
    if (game.problem) el(column, "div", {"class": "problem"}, game.problem);
    var body = el(column, "div", {"class": "game-body"});
    var boardBox = el(body, "div", {"class": "board-box"});
    this.board = svg(boardBox, "svg", {"class": "board", "data-game": game.game});
    this.noBoard = el(boardBox, "div", {"class": "no-board"});
    this.banner = el(boardBox, "div", {"class": "banner"});
    var seats = el(body, "div", {"class": "seats"});
    this.panels = game.players.map(function (player, seat) { return seatPanel(seats, player, seat); });
    this.chart = new Chart(column, game);
  }

  function seatPanel(parent, player, seat) {
    var panel = el(parent, "div", {"class": "seat", "data-seat": seat});
    var head = el(panel, "div", {"class": "seat-head"});
    el(head, "span", {"class": "dot", style: "background:" + COLORS[seat]});
    el(head, "span", {"class": "bot"}, "seat " + seat + ": " + player.bot);
    var parts = {panel: panel};
    parts.answer = el(panel, "div", {"class": "answer"});
    var timing = el(panel, "div", {"class": "timing"});
    parts.bar = el(el(timing, "div", {"class": "bar"}), "div", {"class": "fill"});
    parts.latency = el(timing, "span", {"class": "latency"});
    parts.fault = el(panel, "div", {"class": "fault"});
    parts.pdata = el(panel, "div", {"class": "pdata"});
    el(panel, "div", {"class": "label"}, "stderr");
    parts.stderr = el(panel, "pre", {"class": "stderr"});
    var details = el(panel, "details", {"class": "input"});
    el(details, "summary", {}, "input lines");
    parts.input = el(details, "pre", {});
    return parts;
  }

  GameView.prototype.show = function (step) {
    var game = this.game, last = game.steps.length - 1, index = Math.min(step, last);
    var current = game.steps[index], frame = current.frame;
    var draw = drawers[game.drawing];
    if (!(draw && draw.incremental)) this.board.textContent = "";
    this.board.style.display = frame ? "" : "none";
    this.noBoard.textContent = frame ? "" : (current.text || game.problem || "no board");
    if (frame) draw(this.board, frame, {colors: COLORS, players: game.players, svg: svg});
    this.banner.textContent = index === last ? "end: " + resultText(game) : (frame && frame.note) || "";
    var faults = current.faults || [];
    this.panels.forEach(function (parts, seat) {
      var turn = null;
      current.seats.forEach(function (entry) { if (entry.seat === seat) turn = entry; });
      var fault = faults.filter(function (f) { return f.seat === seat; })[0];
      parts.panel.classList.toggle("asked", !!turn);
      parts.panel.classList.toggle("faulted", !!fault);
      parts.fault.textContent = fault ? "FAULT " + fault.kind + ": " + fault.detail : "";
      parts.answer.textContent = turn ? (turn.output === null ? "(no answer)" : turn.output)
        : (index === 0 ? "(start)" : "(not asked this turn)");
      var budget = turn ? turn.budget_ms : null, latency = turn ? turn.latency_ms : null;
      parts.latency.textContent = turn ? ms(latency) + " of " + ms(budget) +
        (turn.cpu_ms !== null && turn.cpu_ms !== undefined ? " (cpu " + ms(turn.cpu_ms) + ")" : "") : "";
      var ratio = latency && budget ? latency / budget : 0;
      parts.bar.style.width = Math.min(100, ratio * 100) + "%";
      parts.bar.className = "fill" + (ratio > 1 ? " over" : ratio > 0.8 ? " near" : "");
      var pdata = turn ? turn.pdata : {};
      parts.pdata.textContent = Object.keys(pdata).map(function (k) { return k + " = " + pdata[k]; }).join("   ");
      parts.stderr.textContent = turn ? turn.stderr : "";
      parts.input.textContent = turn ? turn.input.join("\n") : "";
    });
    this.chart.cursor(index);
  };

  /* Latency (or a numeric [PDATA] key) per step and seat, with the budget line. */
  function Chart(parent, game) {
    this.game = game;
    var box = el(parent, "div", {"class": "chart"});
    var keys = {};
    game.steps.forEach(function (step) {
      step.seats.forEach(function (entry) {
        for (var key in entry.pdata) if (typeof entry.pdata[key] === "number") keys[key] = true;
      });
    });
    this.select = el(box, "select", {"class": "series", "aria-label": "chart series"});
    el(this.select, "option", {value: ""}, "latency (ms)");
    Object.keys(keys).sort().forEach(function (key) { el(this.select, "option", {value: key}, "[PDATA] " + key); }, this);
    this.plot = svg(box, "svg", {viewBox: "0 0 600 120", preserveAspectRatio: "none", "class": "plot"});
    this.scale = el(box, "span", {"class": "scale"});
    this.select.addEventListener("change", this.draw.bind(this));
    this.draw();
  }

  Chart.prototype.values = function (seat) {
    var key = this.select.value;
    return this.game.steps.map(function (step) {
      var entry = step.seats.filter(function (e) { return e.seat === seat; })[0];
      if (!entry) return null;
      var value = key ? entry.pdata[key] : entry.latency_ms;
      return typeof value === "number" ? value : null;
    });
  };

  Chart.prototype.draw = function () {
    var plot = this.plot, game = this.game, count = Math.max(1, game.steps.length - 1);
    var budget = this.select.value ? null : game.time_control.turn_ms;
    var series = game.players.map(function (p, seat) { return this.values(seat); }, this);
    var top = budget ? budget * 1.25 : 0, bottom = 0;
    series.forEach(function (values) {
      values.forEach(function (v, i) {
        if (v === null) return;
        // a bot's first answer has a larger budget: let it clip rather than flatten the rest
        if (!budget || i > 2) top = Math.max(top, v);
        bottom = Math.min(bottom, v);
      });
    });
    if (top <= bottom) top = bottom + 1;
    var x = function (i) { return 4 + 592 * i / count; };
    var y = function (v) { return 114 - 108 * (Math.min(v, top) - bottom) / (top - bottom); };
    plot.textContent = "";
    if (budget) svg(plot, "line", {x1: 0, x2: 600, y1: y(budget), y2: y(budget), "class": "budget"});
    this.scale.textContent = "top " + Math.round(top * 10) / 10 + (budget ? " ms \u00b7 dashed: the " + budget +
      " ms turn budget (first answers have " + game.time_control.first_turn_ms + " ms)" : "");
    series.forEach(function (values, seat) {
      var points = [];
      values.forEach(function (v, i) { if (v !== null) points.push(x(i).toFixed(1) + "," + y(v).toFixed(1)); });
      svg(plot, "polyline", {points: points.join(" "), stroke: COLORS[seat], "class": "series-line", "data-seat": seat});
    });
    this.line = svg(plot, "line", {y1: 0, y2: 120, "class": "cursor"});
    this.x = x;
    if (this.index !== undefined) this.cursor(this.index);
  };

  Chart.prototype.cursor = function (index) {
    this.index = index;
    this.line.setAttribute("x1", this.x(index));
    this.line.setAttribute("x2", this.x(index));
  };

  /* The one timeline all columns follow. */
  function Timeline(root, views, data) {
    var count = Math.max.apply(null, views.map(function (v) { return v.game.steps.length; }));
    this.views = views; this.last = count - 1; this.step = 0; this.timer = null;
    var bar = el(root, "div", {id: "timeline"});
    var self = this;
    function button(id, label, title, action) {
      el(bar, "button", {id: id, title: title}, label).addEventListener("click", function (event) {
        action();
        event.currentTarget.blur();       // so that space plays/pauses instead of clicking it again
      });
    }
    button("first", "|\u25c0", "first (Home)", function () { self.go(0); });
    button("prev", "\u25c0", "previous (\u2190)", function () { self.go(self.step - 1); });
    button("play", "play", "play / pause (space)", function () { self.toggle(); });
    button("next", "\u25b6", "next (\u2192)", function () { self.go(self.step + 1); });
    button("last", "\u25b6|", "last (End)", function () { self.go(self.last); });
    var track = el(bar, "div", {"class": "track"});
    this.slider = el(track, "input", {type: "range", id: "slider", min: 0, max: this.last, value: 0, "aria-label": "turn"});
    this.slider.addEventListener("input", function () { self.go(Number(self.slider.value)); });
    var markers = el(track, "div", {"class": "markers"});
    views.forEach(function (view) { self.markFaults(markers, view.game); });
    if (data.diff_step !== null && data.diff_step !== undefined) {
      this.mark(markers, data.diff_step, "diff", "first difference: step " + data.diff_step);
    }
    this.speed = el(bar, "select", {id: "speed", "aria-label": "speed"});
    SPEEDS.forEach(function (s) { el(self.speed, "option", {value: s[1]}, s[0]); });
    this.speed.value = "500";
    this.speed.addEventListener("change", function () { if (self.timer) { self.toggle(); self.toggle(); } });
    this.label = el(bar, "span", {id: "turn-label"});
    if (data.diff_step !== null && data.diff_step !== undefined) {
      var at = views[0].game.steps[Math.min(data.diff_step, views[0].game.steps.length - 1)];
      el(bar, "button", {id: "diff", title: "go to the first difference"},
         "first difference: turn " + at.turn).addEventListener("click", function () { self.go(data.diff_step); });
    } else if (views.length === 2) {
      el(bar, "span", {id: "diff"}, "same answers throughout");
    }
    document.addEventListener("keydown", function (event) { self.key(event); });
    views.forEach(function (view) {
      view.chart.plot.addEventListener("click", function (event) {
        var box = view.chart.plot.getBoundingClientRect();
        self.go(Math.round((event.clientX - box.left) / box.width * (view.game.steps.length - 1)));
      });
    });
  }

  Timeline.prototype.mark = function (markers, step, kind, title) {
    el(markers, "span", {"class": "marker " + kind, "data-step": step, title: title,
                         style: "left:" + (this.last ? 100 * step / this.last : 0) + "%"});
  };

  Timeline.prototype.markFaults = function (markers, game) {
    game.steps.forEach(function (step, index) {
      (step.faults || []).forEach(function (f) {
        this.mark(markers, index, "fault", "seat " + f.seat + " " + f.kind + " at turn " + step.turn + ": " + f.detail);
      }, this);
    }, this);
  };

  Timeline.prototype.go = function (step) {
    step = Math.max(0, Math.min(this.last, step));
    this.step = step;
    this.slider.value = step;
    this.views.forEach(function (view) { view.show(step); });
    var first = this.views[0].game.steps[Math.min(step, this.views[0].game.steps.length - 1)];
    var kind = first.frame && first.frame.label ? " \u00b7 " + first.frame.label : "";
    this.label.textContent = step === 0 ? "start" : "turn " + first.turn + kind + "  (" + step + "/" + this.last + ")";
    document.body.setAttribute("data-step", step);
    document.body.setAttribute("data-turn", step === 0 ? "" : first.turn);
    if (step === this.last && this.timer) this.toggle();
  };

  Timeline.prototype.toggle = function () {
    var self = this, button = document.getElementById("play");
    if (this.timer) {
      clearInterval(this.timer); this.timer = null; button.textContent = "play";
      return;
    }
    if (this.step === this.last) this.go(0);
    button.textContent = "pause";
    this.timer = setInterval(function () { self.go(self.step + 1); }, Number(this.speed.value));
  };

  Timeline.prototype.key = function (event) {
    var tag = event.target && event.target.tagName;
    if (tag === "SELECT" || tag === "SUMMARY" || event.altKey || event.ctrlKey || event.metaKey) return;
    var moves = {ArrowLeft: -1, ArrowRight: 1, ArrowUp: -10, ArrowDown: 10};
    if (event.key in moves) this.go(this.step + moves[event.key]);
    else if (event.key === "Home") this.go(0);
    else if (event.key === "End") this.go(this.last);
    else if (event.key === " ") this.toggle();
    else return;
    event.preventDefault();
  };

  function start() {
    var data = JSON.parse(document.getElementById("botarena-data").textContent);
    var app = document.getElementById("app");
    var columns = el(app, "div", {"class": "columns count-" + data.games.length});
    var views = data.games.map(function (game, index) { return new GameView(columns, game, index); });
    var timeline = new Timeline(app, views, data);
    app.insertBefore(document.getElementById("timeline"), columns);
    timeline.go(0);
    window.botarenaTimeline = timeline;
  }

  return {drawers: drawers, svg: svg, colors: COLORS, start: start};
})();
