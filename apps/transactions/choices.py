from django.db import models


class TransactionType(models.TextChoices):
    CHARGE = "charge", "Charge"
    EXTERNAL_REVENUE = "external_revenue", "Revenue collected outside the service"
    REFUND = "refund", "Refund"


class TransactionSourceType(models.TextChoices):
    BOOKING = "booking", "Booking charge"
    MEMBERSHIP = "membership", "Membership charge"
    PRODUCT = "product", "Product sale"
    EVENT = "event", "Event ticket"
    EXTERNAL = "external", "Outside the service"


class TransactionPaymentStatus(models.TextChoices):
    UNPAID = "unpaid", "Not paid"
    PARTIALLY_PAID = "partially_paid", "Partially paid"
    PAID = "paid", "Fully paid"
    PARTIALLY_REFUNDED = "partially_refunded", "Partially refunded"
    REFUNDED = "refunded", "Fully refunded"
    VOID = "void", "Void"
