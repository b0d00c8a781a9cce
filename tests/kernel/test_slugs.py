import pytest
from django.db import IntegrityError

from apps.kernel import slugs
from apps.organizations.models import Organization


@pytest.mark.parametrize(
    ("text", "slug"),
    [
        ("Qué tal, Zürich", "que-tal-zurich"),
        ("Привет мир", "privet-mir"),
        ("  Free_trial   request!! ", "free-trial-request"),
        ("★★★", ""),
    ],
)
def test_slugify_transliterates(text, slug):
    assert slugs.slugify(text) == slug


def test_slugify_cuts_without_a_trailing_hyphen():
    assert slugs.slugify("abc def", max_length=4) == "abc"
    assert slugs.with_suffix("abcdef", 12, max_length=6) == "abc-12"


@pytest.mark.django_db
def test_free_slug_suffixes_the_first_free_number():
    Organization.objects.create(name="a", slug="club-zurich")
    Organization.objects.create(name="b", slug="club-zurich-2")
    Organization.objects.create(name="c", slug="club-zurich-other")
    rows = Organization.objects.all()
    assert slugs.free_slug(rows, "Club Zürich", fallback="org", max_length=80) == "club-zurich-3"
    assert slugs.free_slug(rows, "★", fallback="org", max_length=80) == "org"


class Taken(Exception):
    pass


def refuse(holder):
    raise Taken(holder)


@pytest.mark.django_db
def test_a_derived_slug_taken_by_a_concurrent_insert_is_derived_again():
    Organization.objects.create(name="first", slug="padel")
    calls = []

    def rows():
        # The first derivation does not see the concurrent row yet (it committed after the read).
        calls.append(1)
        return Organization.objects.none() if len(calls) == 1 else Organization.objects.all()

    organization = Organization(name="Padel")
    slugs.save_with_unique_slug(organization, rows, taken=refuse, derive_from=organization.name, max_length=80)
    assert Organization.objects.get(pk=organization.pk).slug == "padel-2"


@pytest.mark.django_db
def test_a_given_slug_that_is_taken_calls_taken_before_and_at_the_save():
    holder = Organization.objects.create(name="first", slug="padel")
    with pytest.raises(Taken) as raised:
        slugs.save_with_unique_slug(Organization(name="x", slug="padel"), Organization.objects.all, taken=refuse)
    assert raised.value.args == (holder.pk,)

    calls = []

    def rows():  # the holder commits between the check and the insert
        calls.append(1)
        return Organization.objects.none() if len(calls) == 1 else Organization.objects.all()

    with pytest.raises(Taken) as raised:
        slugs.save_with_unique_slug(Organization(name="x", slug="padel"), rows, taken=refuse)
    assert raised.value.args == (holder.pk,)


@pytest.mark.django_db
def test_an_instance_keeps_its_own_slug_on_update():
    organization = Organization.objects.create(name="first", slug="padel")
    organization.name = "renamed"
    slugs.save_with_unique_slug(organization, Organization.objects.all, taken=refuse)
    assert Organization.objects.get(pk=organization.pk).name == "renamed"


@pytest.mark.django_db
def test_another_integrity_error_is_raised():
    organization = Organization(name="x", currency=None)
    with pytest.raises(IntegrityError):
        slugs.save_with_unique_slug(organization, Organization.objects.all, taken=refuse, derive_from="x")
