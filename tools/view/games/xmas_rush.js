/* Xmas Rush: 7x7 tiles with their paths, items in their owner's colour (a gold ring: a revealed
   quest), the players, this turn's push arrows or walked paths; beside it each player's hand tile,
   quests, deck and score. */
(function () {
  var T = 60, M = 34, SHORT = {ARROW: "AR", BOOK: "BK", CANE: "CN", CANDY: "CD", DIAMOND: "DI", FISH: "FI",
    MASK: "MK", KEY: "KY", POTION: "PO", SCROLL: "SC", SHIELD: "SH", SWORD: "SW"};
  var ITEM_FILL = ["#f7c5cb", "#c5d8f7"];

  function box(x, y, w, h) { return "M" + x + " " + y + "h" + w + "v" + h + "h" + (-w) + "Z"; }

  /* One path per tile for its roads (few elements: stepping redraws the whole board). */
  function roads(x, y, size, mask) {
    var w = size * 0.3, c = size / 2, d = box(x + c - w / 2, y + c - w / 2, w, w);
    if (mask & 1) d += box(x + c - w / 2, y, w, c);
    if (mask & 2) d += box(x + c, y + c - w / 2, c, w);
    if (mask & 4) d += box(x + c - w / 2, y + c, w, c);
    if (mask & 8) d += box(x, y + c - w / 2, c, w);
    return d;
  }

  function tile(svg, root, x, y, size, mask, cell, ground) {
    var d = roads(x, y, size, mask);
    if (ground) svg(root, "rect", {x: x, y: y, width: size, height: size, fill: "#5f8a4e", stroke: "#3d5e31"});
    svg(root, "path", {d: d, fill: "#efe6d0", "class": "tile", "data-cell": cell, "data-tile": mask});
  }

  function item(svg, root, cx, cy, name, owner, quest, view, kind) {
    var group = svg(root, "g", {"class": kind || "item", "data-item": name, "data-owner": owner, "data-quest": quest ? 1 : 0});
    svg(group, "circle", {cx: cx, cy: cy, r: 12, fill: ITEM_FILL[owner], stroke: quest ? "#e6a800" : view.colors[owner],
                          "stroke-width": quest ? 4 : 2});
    svg(group, "text", {x: cx, y: cy + 4, "text-anchor": "middle", "font-size": 11, "font-weight": 700,
                        fill: "#222"}, SHORT[name] || name.slice(0, 2));
    return group;
  }

  function centre(cell) { return [M + (cell % 7) * T + T / 2, M + Math.floor(cell / 7) * T + T / 2]; }

  function arrow(svg, root, push, seat, view) {
    var line = push[0], dir = push[1], off = seat ? 7 : -7, a = M / 2, p, rot;
    if (dir === "DOWN") { p = [M + line * T + T / 2 + off, a]; rot = 180; }
    else if (dir === "UP") { p = [M + line * T + T / 2 + off, 2 * M + 7 * T - a]; rot = 0; }
    else if (dir === "RIGHT") { p = [a, M + line * T + T / 2 + off]; rot = 90; }
    else { p = [2 * M + 7 * T - a, M + line * T + T / 2 + off]; rot = 270; }
    svg(root, "path", {d: "M0 -12 L10 8 L-10 8 Z", fill: view.colors[seat], stroke: "#000",
                       transform: "translate(" + p[0] + " " + p[1] + ") rotate(" + rot + ")",
                       "class": "push", "data-seat": seat, "data-push": line + " " + dir});
  }

  function sidebar(svg, root, frame, view, quests) {
    var x0 = 2 * M + 7 * T + 14;
    frame.players.forEach(function (player, seat) {
      var y0 = 20 + seat * 240;
      svg(root, "text", {x: x0, y: y0, "font-size": 15, "font-weight": 700, fill: view.colors[seat]},
          "seat " + seat + ": " + view.players[seat].bot);
      svg(root, "text", {x: x0, y: y0 + 20, "font-size": 13, "class": "score", "data-seat": seat},
          "quests done " + player.score + " \u00b7 deck " + player.deck);
      svg(root, "text", {x: x0, y: y0 + 42, "font-size": 12, fill: "#555"}, "hand tile");
      tile(svg, root, x0, y0 + 50, T, player.hand, "hand-" + seat, true);
      frame.items.forEach(function (it) {
        if (it[0] === -1 - seat) item(svg, root, x0 + T / 2, y0 + 50 + T / 2, it[1], it[2], quests[it[2]][it[1]], view);
      });
      svg(root, "text", {x: x0, y: y0 + 132, "font-size": 12, fill: "#555"}, "quests");
      player.quests.forEach(function (name, i) {
        item(svg, root, x0 + 14 + i * 30, y0 + 152, name, seat, true, view, "quest");
      });
    });
  }

  /* The board's 49 tiles and 24 items are built once and updated in place (a step changes one
     line of tiles at most); marks, players and the sidebar are redrawn. */
  function build(svg, root, view) {
    root.textContent = "";
    root.setAttribute("viewBox", "0 0 " + (2 * M + 7 * T + 230) + " " + (2 * M + 7 * T));
    svg(root, "rect", {x: M, y: M, width: 7 * T, height: 7 * T, fill: "#5f8a4e"});
    var grid = "";
    for (var line = 0; line <= 7; line++) grid += "M" + M + " " + (M + line * T) + "h" + 7 * T + "M" + (M + line * T) + " " + M + "v" + 7 * T;
    svg(root, "path", {d: grid, stroke: "#3d5e31", fill: "none"});
    var cache = {masks: [], tiles: [], items: {}, itemLayer: null, layer: null};
    for (var cell = 0; cell < 49; cell++) {
      tile(svg, root, M + (cell % 7) * T, M + Math.floor(cell / 7) * T, T, 0, cell);
      cache.tiles.push(root.lastChild);
    }
    cache.itemLayer = svg(root, "g", {});
    cache.layer = svg(root, "g", {});
    return cache;
  }

  function placeTiles(cache, tiles) {
    for (var cell = 0; cell < 49; cell++) {
      if (cache.masks[cell] === tiles[cell]) continue;          // (undefined at first: all drawn)
      var mask = tiles[cell];
      cache.tiles[cell].setAttribute("d", roads(M + (cell % 7) * T, M + Math.floor(cell / 7) * T, T, mask));
      cache.tiles[cell].setAttribute("data-tile", mask);
      cache.masks[cell] = mask;
    }
  }

  function placeItems(svg, cache, items, quests, view) {
    var seen = {};
    items.forEach(function (it) {
      if (it[0] < 0) return;
      var key = it[1] + it[2], group = cache.items[key], quest = !!quests[it[2]][it[1]], c = centre(it[0]);
      if (!group) group = cache.items[key] = item(svg, cache.itemLayer, 0, 0, it[1], it[2], false, view);
      seen[key] = true;
      group.setAttribute("transform", "translate(" + c[0] + " " + c[1] + ")");
      group.setAttribute("display", "inline");
      if (group.getAttribute("data-quest") !== (quest ? "1" : "0")) {
        group.setAttribute("data-quest", quest ? 1 : 0);
        group.firstChild.setAttribute("stroke", quest ? "#e6a800" : view.colors[it[2]]);
        group.firstChild.setAttribute("stroke-width", quest ? 4 : 2);
      }
    });
    for (var key in cache.items) {
      if (!seen[key]) cache.items[key].setAttribute("display", "none");
      cache.items[key].setAttribute("class", seen[key] ? "item" : "item-gone");
    }
  }

  function draw(root, frame, view) {
    var svg = view.svg, quests = [{}, {}];
    var cache = root.xmasRush || (root.xmasRush = build(svg, root, view)), layer = cache.layer;
    frame.players.forEach(function (p, seat) { p.quests.forEach(function (n) { quests[seat][n] = true; }); });
    placeTiles(cache, frame.tiles);
    placeItems(svg, cache, frame.items, quests, view);
    layer.textContent = "";
    var marks = frame.marks || {};
    Object.keys(marks).forEach(function (seat) {
      var mark = marks[seat];
      if (mark.push) arrow(svg, layer, mark.push, Number(seat), view);
      if (mark.path && mark.path.length > 1) {
        var off = Number(seat) ? 5 : -5;
        svg(layer, "polyline", {points: mark.path.map(function (c) { var p = centre(c); return (p[0] + off) + "," + (p[1] + off); }).join(" "),
                                fill: "none", stroke: view.colors[seat], "stroke-width": 4, opacity: 0.8,
                                "stroke-linejoin": "round", "class": "path", "data-seat": seat, "data-cells": mark.path.join(" ")});
      }
    });
    frame.players.forEach(function (player, seat) {
      var c = centre(player.cell);
      svg(layer, "circle", {cx: c[0] + (seat ? 14 : -14), cy: c[1] + 14, r: 10, fill: view.colors[seat], stroke: "#fff",
                            "stroke-width": 2, "class": "player", "data-seat": seat, "data-cell": player.cell});
    });
    sidebar(svg, layer, frame, view, quests);
  }
  draw.incremental = true;              // the viewer does not clear the board between steps
  BotArena.drawers.xmas_rush = draw;
})();
