"""Two organizations with one row of every admin-managed model each, and a staff user of the first one."""

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.test import Client
from django.utils import timezone

from apps.billing.models import Plan, PlanCategory, RevenueAccount
from apps.bookings.models import Booking, CheckIn, Player, WaitlistEntry
from apps.classes.models import ClassOccurrence
from apps.clubs.models import Area, AreaType, Club, ClubReview
from apps.contacts.models import Contact
from apps.events.models import Event, EventTicket
from apps.instructors.models import Instructor, InstructorType, PayRatePolicy
from apps.memberships.models import Membership
from apps.occupancy.models import AreaBlock
from apps.organizations.models import StaffMembership

ADMIN_APPS = ("bookings", "billing", "memberships", "instructors", "clubs", "occupancy", "events")


@dataclass
class Rows:
    """One row of each model, every name carrying `tag` so a page that shows any of them is easy to spot."""

    tag: str
    club: Club
    area_type: AreaType
    area: Area
    area_block: AreaBlock
    club_review: ClubReview
    contact: Contact
    booking: Booking
    player: Player
    class_occurrence: ClassOccurrence
    waitlist_entry: WaitlistEntry
    check_in: CheckIn
    revenue_account: RevenueAccount
    plan_category: PlanCategory
    plan: Plan
    membership: Membership
    instructor_type: InstructorType
    pay_rate_policy: PayRatePolicy
    instructor: Instructor
    event: Event
    event_ticket: EventTicket

    def of(self, model_name):
        """The row of the admin model `model_name` (e.g. "areablock")."""
        return {
            "club": self.club,
            "areatype": self.area_type,
            "area": self.area,
            "areablock": self.area_block,
            "clubreview": self.club_review,
            "booking": self.booking,
            "waitlistentry": self.waitlist_entry,
            "checkin": self.check_in,
            "revenueaccount": self.revenue_account,
            "plancategory": self.plan_category,
            "plan": self.plan,
            "membership": self.membership,
            "instructortype": self.instructor_type,
            "payratepolicy": self.pay_rate_policy,
            "instructor": self.instructor,
            "event": self.event,
        }[model_name]


def build_rows(organization, tag) -> Rows:
    start = (timezone.now() + dt.timedelta(days=3)).replace(microsecond=0)
    club = Club.objects.create(
        organization=organization, name=f"{tag} Club", slug=f"{tag.lower()}-club", timezone="Europe/Madrid"
    )
    area_type = AreaType.objects.create(organization=organization, name=f"{tag} Court type", slug=f"{tag.lower()}-ct")
    area = Area.objects.create(organization=organization, club=club, area_type=area_type, name=f"{tag} Court")
    area_block = AreaBlock.objects.create(
        organization=organization,
        club=club,
        area=area,
        start_time=start,
        end_time=start + dt.timedelta(hours=1),
        reason=f"{tag} repairs",
    )
    club_review = ClubReview.objects.create(organization=organization, club=club, rating=5, comment=f"{tag} review")
    contact = Contact.objects.create(
        organization=organization, first_name=f"{tag}contact", email=f"{tag.lower()}@example.com"
    )
    event = Event.objects.create(
        organization=organization,
        club=club,
        name=f"{tag} Gala",
        slug=f"{tag.lower()}-gala",
        start_time=start,
        end_time=start + dt.timedelta(hours=2),
    )
    event_ticket = EventTicket.objects.create(
        organization=organization, event=event, name=f"{tag} Ticket", price_before_tax=Decimal("10")
    )
    booking = Booking.objects.create(
        organization=organization,
        type="area",
        club=club,
        area=area,
        contact=contact,
        booker_name=f"{tag} booker",
        start_time=start,
        end_time=start + dt.timedelta(hours=1),
    )
    player = Player.objects.create(
        organization=organization, booking=booking, contact=contact, name=f"{tag} player", is_organizer=True
    )
    class_occurrence = ClassOccurrence.objects.create(
        organization=organization,
        club=club,
        name=f"{tag} Yoga",
        start_time=start,
        end_time=start + dt.timedelta(hours=1),
        max_capacity=1,
    )
    waitlist_entry = WaitlistEntry.objects.create(
        organization=organization, class_occurrence=class_occurrence, contact=contact, position=1
    )
    # every organization starts with its default sales account: that one row, named after the tag
    revenue_account = RevenueAccount.objects.get(organization=organization, is_default=True)
    revenue_account.name = f"{tag} Sales"
    revenue_account.save(update_fields=["name"])
    plan_category = PlanCategory.objects.create(organization=organization, name=f"{tag} Category")
    plan = Plan.objects.create(
        organization=organization,
        club=club,
        plan_category=plan_category,
        revenue_account=revenue_account,
        name=f"{tag} Plan",
        price=Decimal("49"),
    )
    membership = Membership.objects.create(
        organization=organization, contact=contact, plan=plan, club=club, start_date=start.date()
    )
    check_in = CheckIn.objects.create(
        organization=organization,
        method="membership",
        membership=membership,
        club=club,
        contact=contact,
        checked_in_at=start,
    )
    instructor_type = InstructorType.objects.create(organization=organization, name=f"{tag} Coach type")
    pay_rate_policy = PayRatePolicy.objects.create(
        organization=organization, name=f"{tag} Hourly", rate_type="hourly", amount=Decimal("20")
    )
    instructor_contact = Contact.objects.create(organization=organization, first_name=f"{tag}instructor")
    instructor = Instructor.objects.create(
        organization=organization, contact=instructor_contact, type=instructor_type, pay_rate_policy=pay_rate_policy
    )
    return Rows(
        tag=tag,
        club=club,
        area_type=area_type,
        area=area,
        area_block=area_block,
        club_review=club_review,
        contact=contact,
        booking=booking,
        player=player,
        class_occurrence=class_occurrence,
        waitlist_entry=waitlist_entry,
        check_in=check_in,
        revenue_account=revenue_account,
        plan_category=plan_category,
        plan=plan,
        membership=membership,
        instructor_type=instructor_type,
        pay_rate_policy=pay_rate_policy,
        instructor=instructor,
        event=event,
        event_ticket=event_ticket,
    )


@pytest.fixture
def ours(organization):
    return build_rows(organization, "Alpha")


@pytest.fixture
def theirs(other_organization):
    return build_rows(other_organization, "Bravo")


@pytest.fixture
def staff_user(organization):
    """A staff user (not a superuser) of `organization` holding every permission on the admin's models."""
    user = get_user_model().objects.create_user("desk@example.com", "desk@example.com", is_staff=True)
    user.user_permissions.set(Permission.objects.filter(content_type__app_label__in=ADMIN_APPS))
    StaffMembership.objects.create(user=user, organization=organization, role="staff")
    return user


@pytest.fixture
def staff(staff_user):
    client = Client()
    client.force_login(staff_user)
    return client


@pytest.fixture
def superuser():
    client = Client()
    client.force_login(get_user_model().objects.create_superuser("root", "root@example.com"))
    return client
