/* Calculation: the four foundations (top card, the card each takes next), the four waste piles
   (every card, bottom first), the card turned up and the stock left; the pile the last action used
   is outlined. */
(function () {
  var NAMES = {1: "A", 11: "J", 12: "Q", 13: "K"}, W = 62, H = 86;
  function rank(card) { return NAMES[card] || String(card); }

  function card(svg, root, x, y, value, attrs, highlight) {
    var group = svg(root, "g", attrs);
    svg(group, "rect", {x: x, y: y, width: W, height: H, rx: 6, fill: value ? "#fff" : "#e4e7df",
                        stroke: highlight ? "#e6a800" : "#666", "stroke-width": highlight ? 4 : 1.2});
    if (value) {
      svg(group, "text", {x: x + 6, y: y + 18, "font-size": 16, "font-weight": 700, fill: "#222"}, rank(value));
      svg(group, "text", {x: x + W / 2, y: y + H / 2 + 12, "text-anchor": "middle", "font-size": 32, "font-weight": 700,
                          fill: "#1f3b73"}, rank(value));
    }
    return group;
  }

  BotArena.drawers.calculation = function (root, frame, view) {
    var svg = view.svg, action = (frame.action || "").split(" "), left = 20;
    var target = action[0] === "BUILD" ? "f" + action[1] : action[0] === "WASTE" ? "w" + action[1]
      : action[0] === "MOVE" ? "f" + action[2] : "", source = action[0] === "MOVE" ? "w" + action[1] : "";
    var tallest = Math.max.apply(null, frame.wastes.map(function (pile) { return pile.length; }).concat([1]));
    root.setAttribute("viewBox", "0 0 " + (left + 4 * (W + 24) + 120) + " " + (190 + H + 22 * tallest + 30));
    svg(root, "text", {x: left, y: 18, "class": "caption"}, "foundations (+1, +2, +3, +4)   \u00b7 " + frame.placed + " / 52 placed");
    frame.foundations.forEach(function (f, index) {
      var x = left + index * (W + 24);
      card(svg, root, x, 30, f.top, {"class": "foundation", "data-pile": "f" + index, "data-card": f.top, "data-size": f.size},
           target === "f" + index);
      svg(root, "text", {x: x, y: 30 + H + 16, "font-size": 12, fill: "#555"},
          f.next ? "+" + (index + 1) + " next " + rank(f.next) + " (" + f.size + ")" : "complete");
    });
    var cx = left + 4 * (W + 24) + 10;
    svg(root, "text", {x: cx, y: 18, "class": "caption"}, "turned up");
    card(svg, root, cx, 30, frame.current, {"class": "current", "data-card": frame.current}, false);
    svg(root, "text", {x: cx, y: 30 + H + 16, "font-size": 12, fill: "#555"}, "stock " + frame.stock);
    svg(root, "text", {x: left, y: 170, "class": "caption"}, "waste piles" + (frame.action ? "   \u00b7 last: " +
        frame.action + " (" + rank(frame.played) + ")" : ""));
    frame.wastes.forEach(function (pile, index) {
      var x = left + index * (W + 24), group = svg(root, "g", {"class": "waste", "data-pile": "w" + index,
                                                              "data-cards": pile.join(" ")});
      if (!pile.length) card(svg, group, x, 180, 0, {}, target === "w" + index || source === "w" + index);
      pile.forEach(function (value, depth) {
        var top = depth === pile.length - 1;
        card(svg, group, x, 180 + 22 * depth, value, {}, top && (target === "w" + index || source === "w" + index));
      });
    });
  };
})();
