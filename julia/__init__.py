"""The Julia package (Project.toml, src/) shipped with nacverify for the juliacall backend."""
