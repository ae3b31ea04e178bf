"""dogcase's JSON API (OpenAPI docs at /api/v1/docs, schema at /api/v1/openapi.json)."""

from ninja import NinjaAPI

from dogcase.api.errors import register_error_handlers
from dogcase.api.law import router as law_router

api = NinjaAPI(
    title="dogcase",
    version="1",
    urls_namespace="api-v1",
    description=(
        "The law endpoints (tag `law`) are public, read-only computations over public law: no login, no "
        "personal data, nothing written. They use no session or cookie authentication, so they need no CSRF "
        "token: a forged cross-site request could only ask a question anyone may ask. Every error has the "
        'shape {"error": {"field": ..., "rule": ...}}.'
    ),
)
register_error_handlers(api)
api.add_router("/", law_router)


@api.get("/health", tags=["meta"])
def health(request) -> dict[str, str]:
    return {"status": "ok"}
