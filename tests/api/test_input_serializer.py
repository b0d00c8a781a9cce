"""`InputSerializer`: a body's camelCase fields fill the model's snake_case names without restating them."""

from rest_framework import serializers

from apps.api.fields import InputSerializer, OrganizationObjectField, StrictIntegerField
from apps.clubs.models import Club


class Body(InputSerializer):
    name = serializers.CharField()
    signupFee = StrictIntegerField()
    clubId = OrganizationObjectField(model=Club)
    classId = StrictIntegerField(source="class_occurrence_id")


def test_camel_case_fields_fill_snake_case_names_and_an_object_id_fills_the_object():
    sources = {name: field.source for name, field in Body().fields.items()}
    assert sources == {"name": "name", "signupFee": "signup_fee", "clubId": "club", "classId": "class_occurrence_id"}
