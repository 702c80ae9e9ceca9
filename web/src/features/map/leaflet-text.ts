// Text for Leaflet. Leaflet writes a string it is given as a tooltip, popup, divIcon or attribution
// with innerHTML, so a depot named `<meta http-equiv=refresh …><a …>Session expired</a>` would become
// a refresh and a fake sign-in link over the map. Every string that reaches Leaflet goes through
// here: a DOM node whose text is the string, or, where Leaflet takes nothing but HTML
// (attributions), the string escaped. `leaflet-text.test.ts` fails on any other HTML sink in web/src.

/** A node Leaflet appends as it is (tooltips, popups, `divIcon({ html })`): the text, never parsed. */
export function leafletText(text: string): HTMLElement {
  const element = document.createElement('span')
  element.textContent = text
  return element
}

/** For the attribution control, which only takes HTML: the text with every markup character escaped. */
export function attributionHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
}
