"""The viewer's folder: CodinGame's viewer files, the game's log and botarena's page around them.

What the SDK's Renderer puts in its folder, botarena puts in this one: every ``view/`` file (see
``files.py``), ``game.json`` (the game log, as ``--sdk-log`` writes it), ``assets.js`` (the
game's images, sprite sheets and fonts under ``assets/``, listed for the viewer), ``demo.js``
(no intro demo: a demo's avatars are fetched from CodinGame's servers). Instead of the runner's
IDE page (angular and jQuery from CDNs), ``index.html`` is botarena's own page around the SDK's
player (``player.js``), and ``player.html`` loses its web-font link and gains a Content Security
Policy that lets nothing be fetched from elsewhere. ``botarena.json`` holds what the log does
not: the bots' names and an avatar each (the log's avatars are CodinGame's, on the network).
"""
from __future__ import annotations

import base64
import json
import os
import posixpath
import re
import shutil
import struct
import tempfile
import zlib
from pathlib import Path

from referee.api import UsageError
from tools.view.codingame.files import REPLACED, ViewerFiles

HERE = Path(__file__).parent
PAGE_FILES = ("index.html", "botarena-viewer.js", "botarena-viewer.css")
MARKER = "botarena.json"            # a folder botarena wrote (and may write again)
# the player's own page runs the SDK's bundle (inline, with eval): it may load what the folder
# holds and nothing from elsewhere
PLAYER_POLICY = ("default-src 'self' data: blob:; script-src 'self' 'unsafe-inline' 'unsafe-eval' "
                 "blob:; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; font-src "
                 "'self' data: blob:; connect-src 'self' data: blob:; media-src 'self' data: blob:; "
                 "worker-src 'self' blob:; frame-src 'none'; object-src 'none'")
_REMOTE_TAG = re.compile(r"<(?:link|script)\b[^>]*\b(?:href|src)\s*=\s*[\"']?(?:https?:)?//[^>]*>"
                         r"(?:\s*</script>)?", re.IGNORECASE)
_HEAD = re.compile(r"<head\b[^>]*>", re.IGNORECASE)
_LIBRARY = re.compile(r"lib/pixi([0-9]+)\.js")
# each seat's avatar a plain square of the viewer's default colour for it (CodinGame's avatars
# are online; distinct ones, since the player caches textures by their URL)
AVATAR_COLOURS = ("ff1d5c", "22a1e4", "ff8f16", "6ac371", "9975e2", "3ac5ca", "de6ddf", "ff0000")


def write_viewer_folder(out: Path, viewer: ViewerFiles, log: dict, names: list[str],
                        title: str) -> int:
    """Write the viewer's folder at ``out`` (replacing one botarena wrote); its file count."""
    _check_destination(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    scratch = Path(tempfile.mkdtemp(prefix=f".{out.name}.", dir=out.parent))
    try:
        count = _fill(scratch, viewer, log, names, title)
        if out.exists():
            shutil.rmtree(out)
        scratch.rename(out)
    except BaseException:
        shutil.rmtree(scratch, ignore_errors=True)
        raise
    return count


def _check_destination(out: Path) -> None:
    if out.exists() and not out.is_dir():
        raise UsageError(f"-o {str(out)!r} is a file; the CodinGame viewer is a folder: give a "
                         "folder's name")
    if out.is_dir() and any(out.iterdir()) and not (out / MARKER).is_file():
        raise UsageError(f"-o {str(out)!r} is a folder that botarena did not write and is not "
                         "empty; give a new or empty folder")


def _fill(folder: Path, viewer: ViewerFiles, log: dict, names: list[str], title: str) -> int:
    count = 0
    for relative, source in sorted(viewer.files.items()):
        if relative in REPLACED:
            continue
        target = folder / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        data = source.read()
        if relative == "player.html":
            data = offline_player_page(data.decode("utf-8", "replace")).encode()
        target.write_bytes(data)
        count += 1
    (folder / "assets.js").write_text(
        "export const assets = " + json.dumps(assets_listing(folder), separators=(",", ":")) + "\n")
    (folder / "demo.js").write_text("export const demo = null;\n")
    (folder / "game.json").write_text(json.dumps(log) + "\n")
    (folder / MARKER).write_text(json.dumps(
        {"title": title, "names": names, "avatars": [avatar_url(seat) for seat in range(len(names))],
         "libraries": libraries(viewer)}) + "\n")
    for name in PAGE_FILES:
        shutil.copyfile(HERE / name, folder / name)
    os.chmod(folder, 0o755)         # mkdtemp's 0700 would hide it from another user's server
    return count + 4 + len(PAGE_FILES)


def libraries(viewer: ViewerFiles) -> dict[str, str]:
    """The drawing libraries the player may load for a viewer (its ``Drawer.requirements``
    name them): each ``lib/pixiN.js`` of the runner as ``PIXIN`` (SDK 4.0: PIXI5, later PIXI6)."""
    found = (_LIBRARY.fullmatch(path) for path in viewer.files)
    return {f"PIXI{match[1]}": match[0] for match in found if match}


def offline_player_page(text: str) -> str:
    """The SDK's player page with no link or script from elsewhere (a web font) and a policy
    that lets it fetch nothing from elsewhere."""
    text = _REMOTE_TAG.sub("", text)
    meta = f'<meta http-equiv="Content-Security-Policy" content="{PLAYER_POLICY}">'
    head = _HEAD.search(text)
    if head is None:
        return meta + text
    return text[:head.end()] + meta + text[head.end():]


def assets_listing(folder: Path) -> dict:
    """assets.js's object, as the SDK's Renderer makes it from ``assets/``: images by their path
    under assets/ (those a sprite sheet loads left out), sprite sheets (``.json``) and bitmap
    fonts (``.fnt``), paths from the folder's root. The sheets are left as they are: the Renderer
    re-points their image from the root in its copy, but serves the game's own folder first, and
    the player's loader looks for the image beside the sheet."""
    assets = folder / "assets"
    images: dict[str, str] = {}
    sprites: list[str] = []
    fonts: list[str] = []
    linked: set[str] = set()
    files = sorted(path for path in assets.rglob("*") if path.is_file()) if assets.is_dir() else []
    for path in files:
        from_root = path.relative_to(folder).as_posix()
        if path.suffix == ".json":
            image = _sprite_sheet_image(path, folder)
            if image is not None:
                sprites.append(from_root)
                linked.add(image)
        elif path.suffix == ".fnt":
            fonts.append(from_root)
        else:
            images[path.relative_to(assets).as_posix()] = from_root
    images = {key: value for key, value in images.items() if value not in linked}
    return {"images": images, "sprites": sprites, "fonts": fonts}


def _sprite_sheet_image(path: Path, folder: Path) -> str | None:
    """The image a sprite sheet loads (``meta.image``, beside the sheet: that is where its loader
    looks), from the folder's root; None for a JSON file that is not a sprite sheet."""
    try:
        image = json.loads(path.read_text())["meta"]["image"]
        return posixpath.normpath((path.parent / image).relative_to(folder).as_posix())
    except (ValueError, KeyError, TypeError, UnicodeDecodeError):
        return None


def avatar_url(seat: int, size: int = 64) -> str:
    """Seat ``seat``'s avatar: a plain square PNG as a data: URL."""
    row = b"\x00" + bytes.fromhex(AVATAR_COLOURS[seat % len(AVATAR_COLOURS)]) * size
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + \
            struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0)) \
        + chunk(b"IDAT", zlib.compress(row * size)) + chunk(b"IEND", b"")
    return "data:image/png;base64," + base64.b64encode(png).decode()
