"""Ed25519 signing keys for checkpoints and corrections, kept in one key directory.

A key named ``NAME`` (letters, digits, ``_ . -``; up to 40 characters) is two files:

* ``NAME.key``: the private key, PKCS #8 PEM without a passphrase, mode 0600 (a private key
  that others can read is refused, as ssh does);
* ``NAME.pub``: the public key as one line, ``ed25519:`` + the 32 raw bytes in unpadded
  base64url (what ``handledger key show`` prints to share, and ``key add`` stores for
  someone else's key, without a ``.key`` file).

A key's **fingerprint** is the first 12 hex digits of the SHA-256 of its raw public bytes; a
signature names it, so the verifier finds the key whatever local name it goes by. Signatures
are 64 bytes, written in unpadded base64url (86 characters). Reading keys never creates the
directory; ``new`` and ``add`` create it with mode 0700.
"""

from __future__ import annotations

import base64
import hashlib
import os
import re
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:  # cryptography is imported where a key is made, read or checked: a
    # command that only opens the ledger (an audit, a history, an export) never loads it
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from ledger.model.errors import LedgerError, MalformedInput, NotFound

NAME_PATTERN = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,39}")
PUBLIC_PREFIX = "ed25519:"
_PUBLIC_TEXT = re.compile(r"ed25519:([A-Za-z0-9_-]{43})")
_SIGNATURE_TEXT = re.compile(r"[A-Za-z0-9_-]{86}")


@dataclass(frozen=True)
class KeyInfo:
    """One key of the directory: its local ``name``, ``fingerprint`` (12 hex digits), the
    shareable ``public`` text and whether this directory holds its private half."""

    name: str
    fingerprint: str
    public: str
    private: bool


@dataclass(frozen=True)
class Checked:
    """A signature checked (:meth:`KeyStore.check`): ``status`` good, bad or unknown; ``signer``
    the local name of the key when good; ``note`` one line for people."""

    status: Literal["good", "bad", "unknown"]
    signer: str | None
    note: str


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def _raw() -> tuple[Any, Any]:
    """The encoding and format of a public key's raw 32 bytes."""
    from cryptography.hazmat.primitives import serialization

    return serialization.Encoding.Raw, serialization.PublicFormat.Raw


def fingerprint(public: Ed25519PublicKey) -> str:
    """The first 12 hex digits of SHA-256 of the raw 32-byte public key."""
    return hashlib.sha256(public.public_bytes(*_raw())).hexdigest()[:12]


def public_text(public: Ed25519PublicKey) -> str:
    """``ed25519:<43 base64url characters>``: the public key as one line."""
    return PUBLIC_PREFIX + _b64(public.public_bytes(*_raw()))


def parse_public(text: str) -> Ed25519PublicKey:
    """The public key of ``ed25519:<base64url>`` (surrounding blanks ignored).

    Raises:
        MalformedInput: not a public key in that form.
    """
    match = _PUBLIC_TEXT.fullmatch(text.strip())
    if match is None:
        raise MalformedInput(f"{text.strip()[:60]!r} is not a public key (ed25519:<43 chars>)")
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    return Ed25519PublicKey.from_public_bytes(_unb64(match.group(1)))


def check_name(name: str) -> str:
    """``name`` when it is a valid key name.

    Raises:
        MalformedInput: empty, too long, or other characters than ASCII letters, digits,
            ``_ . -``.
    """
    if NAME_PATTERN.fullmatch(name) is None:
        raise MalformedInput(
            f"key name {name[:60]!r}: use 1-40 ASCII letters (A-Z, a-z), digits, '_', '.' or "
            "'-' (a letter or digit first)"
        )
    return name


def verify_signature(public: Ed25519PublicKey, message: bytes, signature: str) -> bool:
    """Whether ``signature`` (base64url text) is ``public``'s signature of ``message``."""
    if _SIGNATURE_TEXT.fullmatch(signature) is None:
        return False
    from cryptography.exceptions import InvalidSignature

    try:
        public.verify(_unb64(signature), message)
    except InvalidSignature:
        return False
    return True


class KeyStore:
    """The keys in ``directory`` (see the module docstring for the files)."""

    def __init__(self, directory: str | os.PathLike[str]) -> None:
        self.directory = Path(directory)
        self._known: list[KeyInfo] | None = None  # for check(), read once

    def new(self, name: str, ledger: str | None = None) -> KeyInfo:
        """Make a new Ed25519 key pair ``name`` and return it. ``ledger``: the command's
        ledger file (``--db``), which neither the directory nor a key file may be
        (:meth:`not_the_ledger`).

        Raises:
            MalformedInput: a bad name.
            LedgerError: a key of that name exists (whatever its case: :meth:`_name_free`),
                the directory or a key file is the ledger, or the directory cannot be
                written.
        """
        check_name(name)
        if ledger is not None:
            self.not_the_ledger(name, ledger, "key new")
        self._name_free(name)
        from cryptography.hazmat.primitives import serialization
        from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

        private = Ed25519PrivateKey.generate()
        pem = private.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
        self._make_directory()
        if self._pub(name).exists():
            raise LedgerError(f"key {name!r} already exists in {self.directory}")
        try:
            fd = os.open(self._key(name), os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            raise LedgerError(f"key {name!r} already exists in {self.directory}") from None
        except OSError as e:
            raise LedgerError(f"cannot write key {name!r} in {self.directory}: "
                              f"{e.strerror or e}") from e
        with os.fdopen(fd, "wb") as out:
            out.write(pem)
        os.chmod(self._key(name), 0o600)
        text = public_text(private.public_key())
        self._pub(name).write_text(text + "\n", encoding="ascii")
        return KeyInfo(name, fingerprint(private.public_key()), text, True)

    def add(self, name: str, text: str, ledger: str | None = None) -> KeyInfo:
        """Store someone's public key ``text`` (``ed25519:…``) as ``name``; adding the same key
        again is a no-op. A directory holds one key a name and one name a key: a signature
        names its signer, and a checkpoint whose named signer is not the name of the key
        that verifies it fails (:mod:`ledger.store.anchor`), so the same key under a second
        name, or a second key under a name that differs only in case, would make either name
        pass for the other. ``ledger``: as :meth:`new`.

        Raises:
            MalformedInput: a bad name or key text.
            LedgerError: ``name`` holds another key, a name differing only in case is taken,
                the key is held under another name, or the directory or the key file is the
                ledger.
        """
        check_name(name)
        public = parse_public(text)
        if ledger is not None:
            self.not_the_ledger(name, ledger, "key add")
        if self._pub(name).exists():
            known = self.info(name)
            if known.public != public_text(public):
                raise LedgerError(f"key {name!r} is another key ({known.fingerprint})")
            return known
        self._name_free(name)
        held = [k for k in self.list() if k.public == public_text(public)]
        if held:
            raise LedgerError(
                f"key {name!r}: this public key ({held[0].fingerprint}) is already held here as "
                f"{held[0].name!r}: a key has one name in a key directory, the name its "
                "signatures are checked against (`handledger key list`); nothing written")
        self._make_directory()
        self._pub(name).write_text(public_text(public) + "\n", encoding="ascii")
        return KeyInfo(name, fingerprint(public), public_text(public), False)

    def held_name(self, name: str) -> str:
        """The name the directory holds the key ``name`` under, matched whatever its case as
        :meth:`new` and :meth:`add` keep names unique (``FLOOR`` finds ``floor``); ``name``
        itself when the directory holds no such key (the lookup that follows says so).

        Raises:
            MalformedInput: a bad name.
        """
        check_name(name)
        if self._pub(name).exists() or self._key(name).exists():
            return name
        folded = name.casefold()
        try:
            held = sorted({p.stem for p in self.directory.iterdir()
                           if p.suffix in (".pub", ".key") and p.stem.casefold() == folded
                           and NAME_PATTERN.fullmatch(p.stem)})
        except OSError:
            return name
        return held[0] if held else name

    def info(self, name: str) -> KeyInfo:
        """The key ``name`` (whatever its case: :meth:`held_name`).

        Raises:
            MalformedInput: a bad name.
            NotFound: no such key in the directory.
            LedgerError: its public key file is damaged.
        """
        name = self.held_name(name)
        try:
            text = self._pub(name).read_text(encoding="ascii")
        except FileNotFoundError:
            raise NotFound(f"no key {name!r} in {self.directory}") from None
        except (OSError, UnicodeDecodeError) as e:
            raise LedgerError(f"cannot read key {name!r} in {self.directory}: {e}") from e
        try:
            public = parse_public(text)
        except MalformedInput as e:
            raise LedgerError(f"key file {self._pub(name)}: {e.message}") from e
        return KeyInfo(name, fingerprint(public), public_text(public), self._key(name).exists())

    def list(self) -> list[KeyInfo]:
        """Every key of the directory by name (none when the directory does not exist)."""
        if not self.directory.is_dir():
            return []
        names = sorted(p.stem for p in self.directory.glob("*.pub"))
        return [self.info(n) for n in names if NAME_PATTERN.fullmatch(n)]

    def aliases(self) -> dict[str, list[str]]:
        """Every key held here under more than one name (a ``.pub`` file copied, which
        :meth:`add` refuses): each of those names -> the other names of the same key, sorted.
        Such a key's signatures are checked against the name they give (:meth:`check`).

        Raises:
            LedgerError: a damaged public key file in the directory.
        """
        names: dict[str, list[str]] = {}
        for info in self.list():
            names.setdefault(info.public, []).append(info.name)
        return {n: [o for o in held if o != n]
                for held in names.values() if len(held) > 1 for n in held}

    def sign(self, name: str, message: bytes) -> tuple[str, str]:
        """Sign ``message`` with the private key ``name`` (whatever its case:
        :meth:`held_name`; a signature names its signer by the held name):
        (fingerprint, base64url signature).

        Raises:
            MalformedInput: a bad name.
            NotFound: no private key ``name`` here.
            LedgerError: the key file is readable by others, or damaged.
        """
        path = self._key(self.held_name(name))
        try:
            mode = path.stat().st_mode
            data = path.read_bytes()
        except FileNotFoundError:
            raise NotFound(f"no private key {name!r} in {self.directory}") from None
        except OSError as e:
            raise LedgerError(f"cannot read key {name!r}: {e}") from e
        if mode & (stat.S_IRWXG | stat.S_IRWXO):
            raise LedgerError(f"private key {path} is readable by others: chmod 600 it")
        from cryptography.hazmat.primitives import serialization
        from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

        try:
            private = serialization.load_pem_private_key(data, password=None)
        except (ValueError, TypeError) as e:
            raise LedgerError(f"private key {path} is damaged or passphrase-protected") from e
        if not isinstance(private, Ed25519PrivateKey):
            raise LedgerError(f"private key {path} is not an Ed25519 key")
        return fingerprint(private.public_key()), _b64(private.sign(message))

    def check(self, key: str, claimed: str, message: bytes, signature: str) -> Checked:
        """Check a ``signature`` of ``message`` that names the key fingerprint ``key`` and
        the signer ``claimed``: ``good`` with the local name of the key that verifies it;
        ``bad`` when the key is here and it does not verify (the signed data or the signature
        was altered), or when the key is not here but ``claimed`` names another key here;
        ``unknown`` when neither the key nor the name is here.

        Raises:
            LedgerError: a damaged public key file in the directory.
        """
        if self._known is None:
            self._known = self.list()
        # a key held under two names (a copied file): the name the signature gives first
        keys = sorted((k for k in self._known if k.fingerprint == key),
                      key=lambda k: k.name.casefold() != claimed.casefold())
        for info in keys:
            if verify_signature(parse_public(info.public), message, signature):
                also = "" if info.name == claimed else f" (signed as {claimed!r})"
                return Checked("good", info.name, f"signed by {info.name}{also}")
        if keys:
            return Checked("bad", None,
                           f"the signature does not verify with key {keys[0].name!r}: altered")
        if any(k.name.casefold() == claimed.casefold() for k in self._known):
            return Checked("bad", None, f"signed as {claimed!r} with key {key}, not with the "
                                        f"key {claimed!r} has here")  # fmt: skip
        return Checked("unknown", None, f"signed by an unknown key {key} (as {claimed!r}): "
                                        "`handledger key add` it to check")  # fmt: skip

    def _name_free(self, name: str) -> None:
        """Refuse a new key ``name`` when the directory holds a key whose name differs from it
        only in case (``FLOOR`` beside ``floor``): one key a name, whatever its case.

        Raises:
            LedgerError: naming the key held.
        """
        for info in self.list():
            if info.name != name and info.name.casefold() == name.casefold():
                raise LedgerError(
                    f"key {name!r}: the key directory already holds a key {info.name!r} "
                    f"({info.fingerprint}): key names are one key each, whatever their case; "
                    "nothing written")

    def not_the_ledger(self, name: str, ledger: str, command: str) -> None:
        """Refuse, before anything is made or written, a key directory (or a folder above it
        that ``new`` or ``add`` would make) or a file of the key ``name`` (``NAME.key``,
        ``NAME.pub``) that is the ledger file at ``ledger``, its write-ahead log or its
        checkpoints file, by any path or link (:mod:`ledger.store.outputs`): a folder made
        at the log's name leaves the ledger unopenable.

        Raises:
            LedgerError: ``--keys l.duckdb.wal is the ledger's write-ahead log: nothing
                written``, ``key new: k/ann.pub is the ledger itself: nothing written``.
        """
        from ledger.store.outputs import no_folder_made_is_the_ledger, none_is_the_ledger

        no_folder_made_is_the_ledger(self.directory, ledger, f"--keys {self.directory}",
                                     f"--keys {self.directory}")
        none_is_the_ledger([self._key(name), self._pub(name)], ledger, command)

    def _make_directory(self) -> None:
        try:
            self.directory.mkdir(mode=0o700, parents=True, exist_ok=True)
        except OSError as e:
            raise LedgerError(f"cannot create the key directory {self.directory}: "
                              f"{e.strerror or e}") from e

    def _key(self, name: str) -> Path:
        return self.directory / f"{name}.key"

    def _pub(self, name: str) -> Path:
        return self.directory / f"{name}.pub"
