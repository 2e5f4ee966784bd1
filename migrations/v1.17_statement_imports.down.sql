DROP TABLE statement_import_rows;
DROP TABLE statement_imports;
