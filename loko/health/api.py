from flask import Blueprint
from marshmallow import fields
from sqlalchemy import text
from sqlalchemy.exc import SQLAlchemyError

from loko import loko_version
from loko.extensions import db
from loko.fields import ApiSchema
from loko.openapi import documented

health_api = Blueprint("health_api", __name__)


class HealthOut(ApiSchema):
    status = fields.String(required=True)
    version = fields.String()
    error = fields.String()


@health_api.get("/health")
@documented(
    "Liveness and database check (no authentication)",
    tags=("health",),
    auth=(),
    responses={200: HealthOut, 503: HealthOut},
    errors=(),
)
def health():
    try:
        db.session.execute(text("SELECT 1"))
        db.session.rollback()
    except SQLAlchemyError as error:
        db.session.rollback()
        return {"status": "unavailable", "error": type(error).__name__}, 503
    return {"status": "ok", "version": loko_version()}
