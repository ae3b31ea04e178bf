"""Money tests take their steps through the documents' act (the one way every page takes a step), with the
cases of tests/documents/conftest.py."""

from tests.documents.conftest import make_case, media  # noqa: F401
