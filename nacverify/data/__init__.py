"""Files shipped with the package: the documents' printed tables (CSV), the public TF layer's golden
numbers (`reference/`), the JSON schemas, measured claim seconds and the findings standard."""
