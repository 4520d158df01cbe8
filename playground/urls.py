from django.urls import include, path

from playground import views

urlpatterns = [
    path("", views.index, name="index"),
    path("healthz", views.healthz, name="healthz"),
    path("api/", include("api.urls")),
]
