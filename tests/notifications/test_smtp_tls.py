"""E-mail over STARTTLS and implicit TLS with a login (AUTH PLAIN, AUTH LOGIN), against real
SMTP servers on the loopback (aiosmtpd) whose certificate is made here and trusted through
LOKO_SMTP_CA_FILE; a wrong password, or a certificate nobody trusts, is a failure said in
words that the job records and retries."""

import datetime as dt
import ipaddress
import json
import ssl

import pytest
from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult, LoginPassword
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID
from sqlalchemy import select

from loko.extensions import db
from loko.jobs import service as jobs
from loko.jobs.models import Job
from loko.jobs.worker import Worker
from loko.notifications import mail
from loko.notifications import service as notifications
from tests.notifications.conftest import Inbox, free_port, run_jobs

USER, PASSWORD = "loko", "s3cret-Pass"
# aiosmtpd warns of a login required without STARTTLS; over SMTPS the connection is TLS.
pytestmark = pytest.mark.filterwarnings("ignore:Requiring AUTH while not requiring TLS:UserWarning")


def _certificate(folder):
    """A self-signed certificate for 127.0.0.1 and its key, written to ``folder``."""
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "127.0.0.1")])
    now = dt.datetime.now(dt.UTC)
    certificate = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - dt.timedelta(minutes=5))
        .not_valid_after(now + dt.timedelta(days=1))
        .add_extension(
            x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]), False
        )
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(key, hashes.SHA256())
    )
    cert_file, key_file = folder / "smtp.pem", folder / "smtp.key"
    cert_file.write_bytes(certificate.public_bytes(serialization.Encoding.PEM))
    key_file.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
        )
    )
    return cert_file, key_file


class Server:
    def __init__(self, inbox: Inbox, ca_file: str, mechanism: str):
        self.inbox, self.ca_file, self.mechanism = inbox, ca_file, mechanism
        self.controller: Controller | None = None
        self.logins: list[str] = []  # the mechanism of each login the server accepted

    def authenticate(self, _server, _session, _envelope, mechanism, data):
        ok = isinstance(data, LoginPassword) and (data.login, data.password) == (
            USER.encode(),
            PASSWORD.encode(),
        )
        if ok:
            self.logins.append(mechanism)
        return AuthResult(success=ok, handled=False)

    def settings(self, tls: str, **changes) -> dict:
        return {
            "LOKO_SMTP_HOST": "127.0.0.1",
            "LOKO_SMTP_PORT": self.controller.port,
            "LOKO_SMTP_TLS": tls,
            "LOKO_SMTP_USER": USER,
            "LOKO_SMTP_PASSWORD": PASSWORD,
            "LOKO_SMTP_CA_FILE": self.ca_file,
            "LOKO_MAIL_FROM": "loko@example.test",
            "LOKO_PUBLIC_URL": "http://loko.example.test",
            **changes,
        }


@pytest.fixture(
    scope="module",
    params=[("starttls", "PLAIN"), ("starttls", "LOGIN"), ("tls", "LOGIN"), ("tls", "PLAIN")],
    ids=lambda param: "-".join(param),
)
def tls_server(request, tmp_path_factory):
    """An SMTP server that asks for a login over TLS (STARTTLS on a plain port, or implicit
    TLS) and offers one mechanism, AUTH PLAIN or AUTH LOGIN."""
    mode, mechanism = request.param
    cert_file, key_file = _certificate(tmp_path_factory.mktemp("smtp-tls"))
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert_file, key_file)
    inbox = Inbox()
    # Over STARTTLS the login is offered only once the connection is upgraded; an SMTPS
    # connection is TLS from its first byte (aiosmtpd does not tell, so it is not asked).
    tls_options = (
        {"tls_context": context, "require_starttls": True, "auth_require_tls": True}
        if mode == "starttls"
        else {"ssl_context": context, "auth_require_tls": False}
    )
    server = Server(inbox, str(cert_file), mechanism)
    server.controller = Controller(
        inbox,
        hostname="127.0.0.1",
        port=free_port(),
        authenticator=server.authenticate,
        auth_required=True,
        auth_exclude_mechanism=["PLAIN" if mechanism == "LOGIN" else "LOGIN"],
        server_hostname="127.0.0.1",
        **tls_options,
    )
    server.controller.start()
    yield mode, server
    server.controller.stop()


def _message(settings: mail.SmtpSettings, subject: str):
    return mail.build_message(
        settings, ("Ada", "ada@example.test"), subject, [subject], "http://loko.example.test/"
    )


def test_a_message_arrives_over_tls_after_the_login(tls_server):
    mode, server = tls_server
    server.inbox.messages.clear()
    settings = mail.smtp_settings(server.settings(mode))
    assert mail.send_all(settings, [_message(settings, "Over TLS"), _message(settings, "Second")]) == 2
    assert [message["Subject"] for message in server.inbox.messages] == ["Over TLS", "Second"]
    assert server.inbox.messages[0]["To"] == "Ada <ada@example.test>"
    assert server.logins[-1] == server.mechanism


def test_a_wrong_password_is_a_clear_error_naming_the_settings(tls_server):
    mode, server = tls_server
    settings = mail.smtp_settings(server.settings(mode, LOKO_SMTP_PASSWORD="wrong"))
    with pytest.raises(mail.MailError, match=r"refused the login of 'loko'.*LOKO_SMTP_PASSWORD"):
        mail.send_all(settings, [_message(settings, "Never")])


def test_an_untrusted_certificate_is_refused_naming_the_ca_setting(tls_server):
    mode, server = tls_server
    settings = mail.smtp_settings(server.settings(mode, LOKO_SMTP_CA_FILE=None))
    with pytest.raises(mail.MailError, match=r"not trusted.*LOKO_SMTP_CA_FILE"):
        mail.send_all(settings, [_message(settings, "Never")])


@pytest.fixture
def config_overrides(tls_server, request):
    """The app e-mails through the TLS server; a test parametrised indirectly with
    ``"wrong"`` logs in with the wrong password."""
    mode, server = tls_server
    wrong = getattr(request, "param", None) == "wrong"
    return server.settings(mode, **({"LOKO_SMTP_PASSWORD": "wrong"} if wrong else {}))


def _queue_email(app, world, title: str) -> str:
    """One unsent notification of the editor and its e-mail job; the job's id."""
    from loko.database import unit_of_work, utcnow
    from loko.notifications.models import Notification
    from tests.factories import user_id

    with app.app_context(), unit_of_work():
        note = Notification(
            user_id=user_id(world.users["editor"]),
            project_id=world.project_id,
            event_id="0190a0a0-0000-7000-8000-000000000001",
            kind="comment",
            channel="email",
            title=title,
            link="http://loko.example.test/",
            count=1,
            created_at=utcnow(),
        )
        db.session.add(note)
        db.session.flush()
        return jobs.enqueue(notifications.EMAIL_JOB, {"ids": [note.id]}).id


def test_the_email_job_sends_over_tls(app, world, tls_server):
    _mode, server = tls_server
    server.inbox.messages.clear()
    job_id = _queue_email(app, world, "A comment on greeting")
    run_jobs(app)
    assert [message["Subject"] for message in server.inbox.messages] == ["A comment on greeting"]
    with app.app_context():
        job = db.session.get(Job, job_id)
        assert (job.state, json.loads(job.result)) == ("succeeded", {"sent": 1})


@pytest.mark.parametrize("config_overrides", ["wrong"], indirect=True)
def test_a_wrong_password_fails_the_job_with_the_reason_and_it_is_retried(app, world, tls_server):
    _mode, server = tls_server
    server.inbox.messages.clear()
    job_id = _queue_email(app, world, "Never sent")
    assert Worker(app).run_one()
    with app.app_context():
        job = db.session.execute(select(Job).where(Job.id == job_id)).scalar_one()
        assert job.state == "queued" and job.attempts == 1
        assert "refused the login of 'loko'" in job.error and "LOKO_SMTP_PASSWORD" in job.error
        assert PASSWORD not in job.error and "wrong" not in job.error
    assert server.inbox.messages == []
