"""Signing in and out: the annotator gives a name, kept in a signed cookie; the page asked for before
signing in is the one shown after, if it is on this site."""

from __future__ import annotations

from urllib.parse import urlsplit

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from review.web.guard import checked_form, csrf_refused
from review.web.pages import render_page
from review.web.session import ANNOTATOR_COOKIE, NAME, sign
from review.web.state import review_of

router = APIRouter()


def safe_next(value: str) -> str:
    """Only a path on this site (no scheme, no host, no //) may be a redirect target."""
    parts = urlsplit(value)
    if not value.startswith("/") or value.startswith("//") or parts.scheme or parts.netloc or "\\" in value:
        return "/queue"
    return value


@router.get("/", response_model=None)
def root() -> RedirectResponse:
    return RedirectResponse("/queue", 303)


@router.get("/login", response_class=HTMLResponse)
def login_form(request: Request, next: str = "/queue") -> HTMLResponse:
    return render_page(request, "login.html", next=safe_next(next), error="")


@router.post("/login", response_model=None)
async def login(request: Request) -> Response:
    form = await checked_form(request)
    if form is None:
        return csrf_refused()
    name = form.get("name", "").strip()
    if not NAME.match(name):
        return render_page(
            request,
            "login.html",
            422,
            next=safe_next(form.get("next", "/queue")),
            error="Use 1–40 letters, digits, spaces, dots, @ or hyphens.",
        )
    response = RedirectResponse(safe_next(form.get("next", "/queue")), 303)
    response.set_cookie(
        ANNOTATOR_COOKIE,
        sign(review_of(request).key, name),
        httponly=True,
        samesite="strict",
        max_age=30 * 86400,
    )
    return response


@router.post("/logout", response_model=None)
async def logout(request: Request) -> Response:
    if await checked_form(request) is None:
        return csrf_refused()
    response = RedirectResponse("/login", 303)
    response.delete_cookie(ANNOTATOR_COOKIE)
    return response
