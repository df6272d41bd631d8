echo second spelling
