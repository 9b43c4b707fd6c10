/* Othello: black discs are seat 0, white seat 1; the last move dotted red, the next side's moves marked. */
BotArena.drawers.othello = function (root, frame, view) {
  var svg = view.svg, size = 50, left = 24, top = 24, files = "abcdefgh";
  root.setAttribute("viewBox", "0 0 " + (left + 8 * size + 8) + " " + (top + 8 * size + 30));
  svg(root, "rect", {x: left, y: top, width: 8 * size, height: 8 * size, fill: "#2e8b4a"});
  for (var i = 0; i < 8; i++) {
    svg(root, "text", {x: left + i * size + size / 2, y: 17, "text-anchor": "middle", "class": "coord"}, files[i]);
    svg(root, "text", {x: 12, y: top + i * size + size / 2 + 5, "text-anchor": "middle", "class": "coord"}, String(i + 1));
  }
  var moves = {};
  frame.moves.forEach(function (square) { moves[square] = true; });
  for (var square = 0; square < 64; square++) {
    var x = left + (square % 8) * size, y = top + Math.floor(square / 8) * size, owner = frame.board[square];
    svg(root, "rect", {x: x, y: y, width: size, height: size, fill: "none", stroke: "#1d5e31", "class": "square",
                       "data-square": square});
    if (owner !== ".") {
      svg(root, "circle", {cx: x + size / 2, cy: y + size / 2, r: size * 0.4, fill: owner === "0" ? "#111" : "#f4f4f4",
                           stroke: "#000", "stroke-width": 1, "class": "disc", "data-square": square, "data-seat": owner});
    } else if (moves[square]) {
      svg(root, "circle", {cx: x + size / 2, cy: y + size / 2, r: 4, fill: frame.to_move === 0 ? "#111" : "#f4f4f4",
                           opacity: 0.5, "class": "legal", "data-square": square});
    }
    if (square === frame.last) {
      svg(root, "circle", {cx: x + size / 2, cy: y + size / 2, r: 6, fill: "#e03030", "class": "last-move",
                           "data-square": square});
    }
  }
  var next = frame.to_move === null ? "game over" : (frame.to_move === 0 ? "black" : "white") + " to move";
  svg(root, "text", {x: left, y: top + 8 * size + 20, "class": "caption"},
      "black (seat 0) " + frame.discs[0] + "   white (seat 1) " + frame.discs[1] + "   \u00b7 " + next);
};
