from rest_framework.routers import SimpleRouter

from .views import MessageViewSet, TemplateViewSet

router = SimpleRouter(trailing_slash=False)
router.register("templates", TemplateViewSet, basename="template")
router.register("messages", MessageViewSet, basename="message")

urlpatterns = router.urls
