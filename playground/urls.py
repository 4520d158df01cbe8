from django.contrib import admin
from django.urls import include, path

from playground import views

urlpatterns = [
    path("", views.index, name="index"),
    path("healthz", views.healthz, name="healthz"),
    path("admin/", admin.site.urls),
    path("api/", include("api.urls")),
]
