/** Shown when this rank has no queue to land on (e.g. while the first screen is being chosen). */
export function HomeScreen() {
  return (
    <section className="console-screen">
      <h1 className="heading-l">Petitions staff console</h1>
      <p className="body-m">Choose a screen from the navigation, or press Ctrl+K.</p>
    </section>
  );
}
