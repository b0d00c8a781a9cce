from django.db import models


class Form(models.Model):
    """A public form (a trial request, a waiver) shown on the organization's default website at `/forms/<slug>`.

    `questions` is the ordered list `[{id, type, label, required, options}]`; ids are given from `next_question_id`
    and never reused, so the answers already stored keep naming the question they answered.
    """

    organization = models.ForeignKey("organizations.Organization", on_delete=models.CASCADE, related_name="forms")
    name = models.CharField(max_length=200)
    slug = models.SlugField(max_length=100)
    description = models.TextField(null=True, blank=True)
    is_active = models.BooleanField(default=True)
    questions = models.JSONField(default=list, blank=True)
    next_question_id = models.PositiveIntegerField(default=1)
    translations = models.JSONField(
        default=dict, blank=True, help_text="{language: {name, description, questions: {<id>: {label, options}}}}"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["organization", "slug"], name="form_slug_unique_per_organization"),
        ]

    def __str__(self):
        return self.name


class FormSubmission(models.Model):
    """One visitor's answers to a form: `[{questionId, label, type, value}]` as the form asked them at the time.

    Never exposed through the API or in events; staff read them in the admin.
    """

    organization = models.ForeignKey(
        "organizations.Organization", on_delete=models.CASCADE, related_name="form_submissions"
    )
    form = models.ForeignKey(Form, on_delete=models.CASCADE, related_name="submissions")
    answers = models.JSONField(default=list)
    locale = models.CharField(max_length=16)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["form", "created_at"], name="form_submission_form_created")]

    def __str__(self):
        return f"{self.form} #{self.pk}"
