"""The app's script and style sheet, served by fixed name: no request value reaches the file system."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import PlainTextResponse, Response

from review.web.state import PACKAGE

STATIC = {  # the only files the app serves, by fixed name
    "app.js": ("app.js", "text/javascript; charset=utf-8"),
    "app.css": ("app.css", "text/css; charset=utf-8"),
}
router = APIRouter()


@router.get("/static/{name}", response_model=None)
def static(name: str) -> Response:
    entry = STATIC.get(name)
    if entry is None:
        return PlainTextResponse("not found", 404)
    filename, media = entry
    return Response((PACKAGE / "static" / filename).read_bytes(), media_type=media)
