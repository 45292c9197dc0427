// Every test file here uses the shared helpers (Fixtures, Shell, TestData).
@_exported import TestSupport
