from rest_framework.routers import SimpleRouter

from .views import ContactSourceViewSet, ContactViewSet, PipelineStageViewSet

router = SimpleRouter(trailing_slash=False)
router.register("contacts", ContactViewSet, basename="contacts")
router.register("pipeline-stages", PipelineStageViewSet, basename="pipeline-stages")
router.register("contact-sources", ContactSourceViewSet, basename="contact-sources")

urlpatterns = router.urls
