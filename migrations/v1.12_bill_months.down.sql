DROP TABLE bill_months;
