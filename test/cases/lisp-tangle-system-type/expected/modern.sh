echo modern
