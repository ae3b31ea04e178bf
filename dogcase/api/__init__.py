"""dogcase's JSON API (OpenAPI docs at /api/v1/docs, schema at /api/v1/openapi.json)."""

from dogcase.api.cases import router as cases_router
from dogcase.api.errors import DogcaseAPI, register_error_handlers
from dogcase.api.law import router as law_router

api = DogcaseAPI(
    title="dogcase",
    version="1",
    urls_namespace="api-v1",
    description=(
        "The law endpoints (tag `law`) are public, read-only computations over public law: no login, no "
        "personal data, nothing written. They use no session or cookie authentication, so they need no CSRF "
        "token: a forged cross-site request could only ask a question anyone may ask. Every error has the "
        'shape {"error": {"field": ..., "rule": ...}}. The case endpoints (tag `cases`) are for logged-in '
        "staff: session cookie, CSRF token on unsafe methods, every record checked against the user's cities "
        "and every act against the city's law pack."
    ),
)
register_error_handlers(api)
api.add_router("/", law_router)
api.add_router("/", cases_router)


@api.get("/health", tags=["meta"])
def health(request) -> dict[str, str]:
    return {"status": "ok"}
