/* tic-tac-toe: X is seat 0, O seat 1; the last move outlined, a winning line struck through. */
BotArena.drawers.tictactoe = function (root, frame, view) {
  var svg = view.svg, size = 100;
  root.setAttribute("viewBox", "0 0 320 320");
  for (var cell = 0; cell < 9; cell++) {
    var x = 10 + (cell % 3) * size, y = 10 + Math.floor(cell / 3) * size, owner = frame.cells[cell];
    svg(root, "rect", {x: x, y: y, width: size, height: size, fill: cell === frame.last ? "#fff6c8" : "#fff",
                       stroke: "#333", "stroke-width": 2, "class": "cell", "data-cell": cell});
    if (owner === "0") {
      svg(root, "path", {d: "M" + (x + 22) + " " + (y + 22) + "L" + (x + 78) + " " + (y + 78) + "M" + (x + 78) + " " +
                         (y + 22) + "L" + (x + 22) + " " + (y + 78), stroke: view.colors[0], "stroke-width": 10,
                         "stroke-linecap": "round", "class": "mark", "data-cell": cell, "data-seat": 0});
    } else if (owner === "1") {
      svg(root, "circle", {cx: x + 50, cy: y + 50, r: 30, fill: "none", stroke: view.colors[1], "stroke-width": 10,
                           "class": "mark", "data-cell": cell, "data-seat": 1});
    }
  }
  if (frame.line.length === 3) {
    var centre = function (c) { return [60 + (c % 3) * size, 60 + Math.floor(c / 3) * size]; };
    var a = centre(frame.line[0]), b = centre(frame.line[2]);
    svg(root, "line", {x1: a[0], y1: a[1], x2: b[0], y2: b[1], stroke: "#222", "stroke-width": 6,
                       "stroke-linecap": "round", "class": "win-line", opacity: 0.7});
  }
};
