"""A throwaway certificate authority and a server certificate for 127.0.0.1, made per
test with `cryptography` (or the `openssl` command where that is missing)."""

from __future__ import annotations

import datetime
import ipaddress
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest


@dataclass(frozen=True, slots=True)
class Certs:
    ca: Path  # the CA certificate (PEM): what a profile trusts
    cert: Path  # the server's certificate for 127.0.0.1, signed by the CA
    key: Path  # the server's private key


def make_certs(folder: Path) -> Certs:
    folder.mkdir(parents=True, exist_ok=True)
    try:
        return _with_cryptography(folder)
    except ImportError:
        if shutil.which("openssl") is None:
            pytest.skip("neither the cryptography package nor the openssl command is here")
        return _with_openssl(folder)


def _with_cryptography(folder: Path) -> Certs:
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

    now = datetime.datetime.now(datetime.UTC)
    ca_key = ec.generate_private_key(ec.SECP256R1())
    ca_name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "Turnlog test CA")])
    ca = (x509.CertificateBuilder().subject_name(ca_name).issuer_name(ca_name)
          .public_key(ca_key.public_key()).serial_number(x509.random_serial_number())
          .not_valid_before(now - datetime.timedelta(minutes=5))
          .not_valid_after(now + datetime.timedelta(days=1))
          .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
          .add_extension(x509.KeyUsage(False, False, False, False, False, True, True, False,
                                       False), critical=True)
          .add_extension(x509.SubjectKeyIdentifier.from_public_key(ca_key.public_key()),
                         critical=False)
          .sign(ca_key, hashes.SHA256()))
    key = ec.generate_private_key(ec.SECP256R1())
    cert = (x509.CertificateBuilder()
            .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "127.0.0.1")]))
            .issuer_name(ca_name).public_key(key.public_key())
            .serial_number(x509.random_serial_number())
            .not_valid_before(now - datetime.timedelta(minutes=5))
            .not_valid_after(now + datetime.timedelta(days=1))
            .add_extension(x509.SubjectAlternativeName(
                [x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]), critical=False)
            .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]),
                           critical=False)
            .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(
                ca_key.public_key()), critical=False)
            .sign(ca_key, hashes.SHA256()))
    certs = Certs(folder / "ca.pem", folder / "server.pem", folder / "server.key")
    certs.ca.write_bytes(ca.public_bytes(serialization.Encoding.PEM))
    certs.cert.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    certs.key.write_bytes(key.private_bytes(serialization.Encoding.PEM,
                                            serialization.PrivateFormat.PKCS8,
                                            serialization.NoEncryption()))
    return certs


def _with_openssl(folder: Path) -> Certs:
    certs = Certs(folder / "ca.pem", folder / "server.pem", folder / "server.key")
    ca_key, csr, ext = folder / "ca.key", folder / "server.csr", folder / "ext.cnf"
    ext.write_text("subjectAltName=IP:127.0.0.1\nextendedKeyUsage=serverAuth\n")

    def run(*args: str) -> None:
        subprocess.run(["openssl", *args], check=True, capture_output=True, timeout=60)

    run("req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
        "-nodes", "-keyout", str(ca_key), "-out", str(certs.ca), "-days", "1",
        "-subj", "/CN=Turnlog test CA")
    run("req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
        "-keyout", str(certs.key), "-out", str(csr), "-subj", "/CN=127.0.0.1")
    run("x509", "-req", "-in", str(csr), "-CA", str(certs.ca), "-CAkey", str(ca_key),
        "-CAcreateserial", "-out", str(certs.cert), "-days", "1", "-extfile", str(ext))
    return certs
