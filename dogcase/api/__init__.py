"""dogcase's JSON API (OpenAPI docs at /api/v1/docs, schema at /api/v1/openapi.json)."""

from ninja import NinjaAPI

from dogcase.api.errors import register_error_handlers
from dogcase.api.law import router as law_router

api = NinjaAPI(title="dogcase", version="1", urls_namespace="api-v1")
register_error_handlers(api)
api.add_router("/", law_router)


@api.get("/health", tags=["meta"])
def health(request) -> dict[str, str]:
    return {"status": "ok"}
