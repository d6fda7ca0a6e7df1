/**
 * The OpenAPI schemas of one module's routes: its tag and the error answers they share, so that a
 * route states only its summary, its 200 answer and its inputs (params, querystring, body).
 */
export function routeSchemas<E extends object>(tag: string, errors: E) {
  return <A, I extends object = object>(summary: string, answer: A, inputs = {} as I) => ({
    tags: [tag],
    summary,
    ...inputs,
    response: { 200: answer, ...errors },
  });
}
