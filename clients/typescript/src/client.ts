import { BASE_PATH, FieldserviceApi } from './generated/api.js'
import { type ClientOptions, HttpClient } from './http.js'

/**
 * The fieldservice public API: `client.jobs.list(query)`, `client.jobs.create(body)`,
 * `client.jobs.get(id)`, … — one method per operation of the OpenAPI document, answering the
 * envelope's `data`, and `listAll` on every list for a `for await` loop over all its pages.
 *
 * ```ts
 * const client = new FieldserviceClient({ baseUrl: 'https://fieldservice.example.com', apiKey })
 * ```
 */
export class FieldserviceClient extends FieldserviceApi {
  constructor(options: ClientOptions) {
    super(new HttpClient(options, BASE_PATH))
  }
}
