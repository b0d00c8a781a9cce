from . import class_views, views

urlpatterns = views.urlpatterns + class_views.urlpatterns
