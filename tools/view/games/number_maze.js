/* number_maze and number_maze_duel: walls, the points on each cell, the characters and the step
   each just took; scores and turns left below. */
BotArena.drawers.number_maze = function (root, frame, view) {
  var svg = view.svg, rows = frame.rows, height = rows.length, width = rows[0].length;
  var size = Math.min(64, Math.floor(480 / Math.max(height, width))), pad = 10;
  root.setAttribute("viewBox", "0 0 " + (2 * pad + width * size) + " " + (2 * pad + height * size + 30));
  var centre = function (cell) {
    return [pad + (cell % width) * size + size / 2, pad + Math.floor(cell / width) * size + size / 2];
  };
  for (var cell = 0; cell < height * width; cell++) {
    var ch = rows[Math.floor(cell / width)][cell % width], x = pad + (cell % width) * size, y = pad + Math.floor(cell / width) * size;
    svg(root, "rect", {x: x, y: y, width: size, height: size, fill: ch === "#" ? "#3b3f4a" : "#fdfcf7", stroke: "#ccc",
                       "class": ch === "#" ? "wall" : "cell", "data-cell": cell, "data-points": ch === "#" || ch === "." ? 0 : ch});
    if (ch !== "#" && ch !== ".") {
      svg(root, "text", {x: x + size / 2, y: y + size / 2 + size * 0.14, "text-anchor": "middle", "font-size": size * 0.42,
                         fill: "#8a6d1d", "font-weight": 700}, ch);
    }
  }
  frame.cells.forEach(function (cell, seat) {
    var to = centre(cell), offset = frame.cells.length > 1 ? (seat ? 5 : -5) : 0;
    if (frame.from) {
      var from = centre(frame.from[seat]);
      svg(root, "line", {x1: from[0] + offset, y1: from[1] + offset, x2: to[0] + offset, y2: to[1] + offset,
                         stroke: view.colors[seat], "stroke-width": 4, opacity: 0.6, "class": "step", "data-seat": seat});
    }
    svg(root, "circle", {cx: to[0] + offset, cy: to[1] + offset, r: size * 0.3, fill: view.colors[seat], stroke: "#fff",
                         "stroke-width": 2, opacity: 0.9, "class": "character", "data-seat": seat, "data-cell": cell});
  });
  var scores = frame.scores.map(function (score, seat) { return "seat " + seat + ": " + score; }).join("   ");
  svg(root, "text", {x: pad, y: 2 * pad + height * size + 12, "class": "caption"}, scores + "   \u00b7 turns left " + frame.turns_left);
};
