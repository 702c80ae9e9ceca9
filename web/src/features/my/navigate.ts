// Links that hand a job's place to the phone's navigation app: `geo:` (Android opens the chosen maps
// app; the label names the pin) and a Google Maps directions URL (iOS and desktops).

export interface Place {
  latitude: string
  longitude: string
  label: string
}

export function geoUrl({ latitude, longitude, label }: Place): string {
  return `geo:${latitude},${longitude}?q=${latitude},${longitude}(${encodeURIComponent(label)})`
}

export function mapsUrl({ latitude, longitude }: Place): string {
  return `https://www.google.com/maps/dir/?api=1&destination=${latitude},${longitude}`
}
