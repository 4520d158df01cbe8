from csp.constants import UNSAFE_INLINE
from csp.decorators import csp_update
from django.urls import path, re_path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from api import views
from playground import converters  # noqa: F401 (registers <share_id:...>)

app_name = "api"

# Swagger UI, with its start-up script served as a file (?script) instead of
# inline, under the site's CSP plus what Swagger UI needs: the page's inline
# <style> block and the style attributes it writes (data: images are allowed everywhere). Its page
# starts with a line back to the site (api/templates/api/swagger_ui.html).
docs = csp_update({"style-src": [UNSAFE_INLINE]})(
    SpectacularSwaggerSplitView.as_view(url_name="api:schema", template_name="api/swagger_ui.html")
)

urlpatterns = [
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    path("docs/", docs, name="docs"),
    path("v1/validate", views.ValidateView.as_view(), name="validate"),
    path("v1/allocate", views.AllocateView.as_view(), name="allocate"),
    path("v1/analyze", views.AnalyzeView.as_view(), name="analyze"),
    path("v1/compare", views.CompareView.as_view(), name="compare"),
    path("v1/convert", views.ConvertView.as_view(), name="convert"),
    path("v1/evaluate", views.EvaluateView.as_view(), name="evaluate"),
    path("v1/capacity", views.CapacityView.as_view(), name="capacity"),
    path("v1/inventories", views.InventoryListView.as_view(), name="inventories"),
    path("v1/inventories/<slug:slug>", views.InventoryDetailView.as_view(), name="inventory"),
    path("v1/examples", views.ExampleListView.as_view(), name="examples"),
    path("v1/examples/<slug:slug>", views.ExampleDetailView.as_view(), name="example"),
    path("v1/shares", views.ShareCreateView.as_view(), name="shares"),
    path("v1/shares/<share_id:id>", views.ShareDetailView.as_view(), name="share"),
    # Any other path under v1, newlines included (found by schemathesis), gets a JSON 404.
    re_path(r"^v1(/[\s\S]*)?\Z", views.NotFoundView.as_view(), name="not-found"),
]
