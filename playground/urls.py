from django.contrib import admin
from django.urls import include, path

from playground import converters, views  # noqa: F401 (converters registers <share_id:...>)

urlpatterns = [
    path("", views.index, name="index"),
    path("share", views.create_share, name="create_share"),
    path("s/<share_id:share_id>", views.share, name="share"),
    path("s/<share_id:share_id>/embed", views.share_embed, name="share_embed"),
    path("s/<share_id:share_id>.yaml", views.share_text, name="share_text"),
    path("export", views.export, name="export"),
    path("capacity", views.capacity_run, name="capacity"),
    path("console", views.console_run, name="console"),
    path("compare", views.compare_run, name="compare"),
    path("picture", views.picture_run, name="picture"),
    path("editor/convert", views.convert, name="editor_convert"),
    path("cluster", views.store_cluster, name="store_cluster"),
    path("import", views.import_state, name="import_state"),
    path("examples/", views.gallery, name="gallery"),
    path("examples/<slug:slug>", views.example, name="example"),
    path("editor/language", views.language, name="editor_language"),
    path("editor/names", views.names, name="editor_names"),
    path("editor/format", views.format_text, name="editor_format"),
    path("healthz", views.healthz, name="healthz"),
    path("admin/", admin.site.urls),
    path("api/", include("api.urls")),
]
