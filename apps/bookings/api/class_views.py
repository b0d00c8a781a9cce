"""Class roster, booking into a class, waitlist and check-ins. (Being built.)"""

urlpatterns = []
