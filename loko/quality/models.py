from sqlalchemy import ForeignKeyConstraint, Index, String, Text

from loko.extensions import db


class ValueIssue(db.Model):
    """What one check finds wrong with one value (its messages joined when it finds more than
    one thing); gone with the value."""

    __tablename__ = "value_issues"
    __table_args__ = (
        ForeignKeyConstraint(
            ["translation_id", "language_code"],
            ["translation_values.translation_id", "translation_values.language_code"],
            name="fk_value_issues_value",
            ondelete="CASCADE",
            onupdate="CASCADE",
        ),
        # Values with issues in a project: by language (any check), and by check.
        Index("ix_value_issues_project_language", "project_id", "language_code", "check_code"),
        Index("ix_value_issues_project_check", "project_id", "check_code", "language_code"),
    )

    translation_id = db.Column(String(36), primary_key=True)
    language_code = db.Column(String(35), primary_key=True)
    check_code = db.Column(String(32), primary_key=True)
    project_id = db.Column(String(36), nullable=False)
    message = db.Column(Text, nullable=False)
    fix = db.Column(Text, nullable=True)
