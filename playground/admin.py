from django.contrib import admin

from playground.models import Example, SampleInventory, Share


@admin.register(SampleInventory)
class SampleInventoryAdmin(admin.ModelAdmin):
    list_display = ("title", "slug", "kubernetes_version", "position", "updated")
    list_editable = ("position",)
    search_fields = ("title", "slug", "description")
    prepopulated_fields = {"slug": ("title",)}


@admin.register(Example)
class ExampleAdmin(admin.ModelAdmin):
    list_display = ("title", "slug", "inventory", "kubernetes_version", "position", "updated")
    list_filter = ("inventory", "kubernetes_version")
    list_select_related = ("inventory",)
    search_fields = ("title", "slug", "description")
    prepopulated_fields = {"slug": ("title",)}


@admin.register(Share)
class ShareAdmin(admin.ModelAdmin):
    """Shares are immutable: their id is a hash of their content."""

    list_display = ("id", "inventory_slug", "kubernetes_version", "node", "created")
    list_filter = ("kubernetes_version",)
    search_fields = ("id",)
    readonly_fields = [f.name for f in Share._meta.fields]

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False
